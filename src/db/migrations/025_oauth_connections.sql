-- OAuth authorization-code flows in progress (issue 27). The state sent to the vendor is never stored, only its
-- SHA-256; a row is consumed (deleted) by the one callback that presents it, and is worthless after expires_at.
CREATE TABLE oauth_states (
  state_hash    bytea PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id       uuid REFERENCES users(id) ON DELETE CASCADE,   -- NULL: started with a workspace key
  integration   text NOT NULL,
  verifier_enc  bytea NOT NULL,                                 -- the PKCE code_verifier, sealed (src/crypto/envelope.ts)
  redirect_uri  text NOT NULL,                                  -- the callback URL the vendor was given (sent again with the code)
  return_url    text,                                           -- where the browser goes afterwards (allow-listed); NULL: a page
  expires_at    timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_states_expiry ON oauth_states (expires_at);

-- Connection health: a refresh the vendor refused marks the connection broken until it is connected again.
ALTER TABLE integration_connections
  ADD COLUMN broken_at timestamptz,
  ADD COLUMN broken_reason text;
-- The refresh schedule's scan: OAuth connections that can still be refreshed, by expiry.
CREATE INDEX integration_connections_refresh_due ON integration_connections (expires_at) WHERE kind = 'oauth2' AND broken_at IS NULL;
