-- API key scopes (opt-in): what a key may drive. 'rest' = the /v1 routes and the no-code routes, 'integrations' =
-- the automation host in x-key (superuser mode in the key's workspace). Existing keys keep everything they could do.
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{rest,integrations}'
  CHECK (scopes <@ '{rest,integrations}'::text[] AND cardinality(scopes) > 0);
