-- Connections carry their kind and non-secret settings next to the sealed secrets (credentials_enc: an AES-256-GCM
-- envelope, src/crypto/envelope.ts); expires_at is the access token's expiry (OAuth2).
ALTER TABLE integration_connections
  ADD COLUMN kind text NOT NULL DEFAULT 'api_key' CHECK (kind IN ('oauth2', 'api_key', 'basic', 'none')),
  ADD COLUMN settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN refreshed_at timestamptz;

-- Journey webhook secrets move into the same envelope. Plaintext rows are sealed by the application on start
-- (sealLegacyWebhookSecrets), which holds the key; the plaintext columns are then emptied.
ALTER TABLE workspaces
  ADD COLUMN webhook_secret_enc bytea,
  ADD COLUMN previous_webhook_secret_enc bytea;
