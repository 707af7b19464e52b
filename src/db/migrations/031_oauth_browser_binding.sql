-- Issue 38 (M1): a flow completes only in the browser that opened its connect link. binding_hash is the SHA-256 of
-- the one-time secret that browser was given in a cookie (the secret itself is never stored); NULL: no browser has
-- opened the link yet, and a callback for such a flow is refused.
ALTER TABLE oauth_states ADD COLUMN binding_hash bytea;

-- Issue 38 (L4): when the connection was last tested against the vendor (POST /v1/connections/{id}/test), so
-- tests of one connection are spaced by CONNECTION_TEST_COOLDOWN_SECONDS across every api process.
ALTER TABLE integration_connections ADD COLUMN tested_at timestamptz;
