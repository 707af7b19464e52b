-- Automation runs keep the (redacted) request, the outcome and how many vendor requests it took; status moves
-- running → succeeded | failed. Secrets and personal data never reach these columns (src/automation/redact.ts).
ALTER TABLE automation_runs
  ADD COLUMN status        text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  ADD COLUMN request       jsonb,
  ADD COLUMN error_type    text,
  ADD COLUMN attempts      integer NOT NULL DEFAULT 0,
  ADD COLUMN run_attempts  integer NOT NULL DEFAULT 0,
  ADD COLUMN superuser     boolean NOT NULL DEFAULT false,
  ADD COLUMN workflow_id   text,
  ADD COLUMN async         boolean NOT NULL DEFAULT false;
