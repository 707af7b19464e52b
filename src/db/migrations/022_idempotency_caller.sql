-- An Idempotency-Key belongs to the credential that sent it, not to the whole workspace: another API key or user of
-- the workspace sending the same key runs its own request instead of replaying someone else's response. `caller` is
-- `key:<api key id>` or `user:<user id>`; records made before (caller '') are never replayed again and expire in 24 h.
ALTER TABLE idempotency_keys ADD COLUMN caller text NOT NULL DEFAULT '';
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (workspace_id, caller, key);
