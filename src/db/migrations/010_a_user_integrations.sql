-- Users may be restricted to some integrations on the automation endpoint (NULL: every integration).
ALTER TABLE users ADD COLUMN allowed_integrations text[];
