-- The run a stored answer named (Switchboard-Workflow-Id, Link): a replay under the same Idempotency-Key names it again.
ALTER TABLE idempotency_keys ADD COLUMN workflow_id text;
