-- Agents and phone numbers over the API (GET/POST/PATCH /v1/agents, /v1/phone-numbers).

-- A number may be detached from every agent: it stays the workspace's (a valid `from`) without a phone group.
ALTER TABLE phone_numbers ALTER COLUMN phone_group_id DROP NOT NULL;

-- Newest-first keyset listings by (created_at, id).
CREATE INDEX agents_workspace_created ON agents (workspace_id, created_at, id);
CREATE INDEX phone_numbers_workspace_created ON phone_numbers (workspace_id, created_at, id);
-- "Is this number another workspace's?" when a number is added.
CREATE INDEX phone_numbers_phone ON phone_numbers (phone);
-- The agents of a phone group (which agent a number belongs to).
CREATE INDEX agents_phone_group ON agents (phone_group_id) WHERE phone_group_id IS NOT NULL;
