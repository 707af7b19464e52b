-- GET /v1/leads: every filter and the newest-first keyset order are served by an index, so a listing costs the
-- same with a million leads in the workspace as with a thousand.

-- Newest first by (created_at, id): created_at never changes, so a cursor page neither repeats nor skips a lead
-- while others are updated (the backward scan of this index gives the order).
CREATE INDEX leads_workspace_created ON leads (workspace_id, created_at, id);
CREATE INDEX leads_workspace_email ON leads (workspace_id, lower(email));
CREATE INDEX leads_workspace_updated ON leads (workspace_id, updated_at);
CREATE INDEX leads_tags ON leads USING gin (tags);
-- Name prefix (q): the full name "first last" and the last name alone, lower-cased; text_pattern_ops serves LIKE 'x%'
-- whatever the database collation.
CREATE INDEX leads_workspace_full_name ON leads (workspace_id, lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) text_pattern_ops);
CREATE INDEX leads_workspace_last_name ON leads (workspace_id, lower(last_name) text_pattern_ops);
