-- Idempotency records expire after 24 h; the api deletes expired ones by created_at.
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
