-- Journeys: the per-workspace secret journey webhooks are signed with (whsec_…, created on first use).
ALTER TABLE workspaces ADD COLUMN webhook_secret text;

-- Enrollments of a journey by state (operators, later listings).
CREATE INDEX enrollments_journey ON enrollments (journey_id, status);
