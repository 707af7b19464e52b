-- Webhook secret rotation: the secret a rotation replaced stays in use (webhooks carry a signature with each)
-- until its expiry, so receivers can switch to the new one at their own pace.
ALTER TABLE workspaces
  ADD COLUMN previous_webhook_secret text,
  ADD COLUMN previous_webhook_secret_expires_at timestamptz;
