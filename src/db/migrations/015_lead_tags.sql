-- GET /v1/leads in page order for every filter (P7): tags as rows walked newest first per tag, and name prefix
-- buckets walked newest first per prefix (src/db/repos/lead-search.ts says which query takes which path).
--
-- Why: the listing is newest first by (created_at, id). Filtering leads.tags through its GIN index finds the matches
-- but not in that order (cost ∝ matches, then a sort); walking the created_at index and filtering costs ∝ the leads
-- passed over (an uncommon tag on old leads walks the whole workspace). One btree per (workspace, tag) in created_at
-- order gives the page directly: cost ∝ page, whatever the workspace's size or the tag's age.
--
-- lead_tags holds exactly one row per distinct tag of each lead, with the lead's workspace and created_at copied (both
-- never change; the trigger re-copies them if they ever do). Kept in sync by triggers on leads, in the writing
-- statement's transaction, so every write path (tag add/remove, update, upsert, import, bulk inserts, COPY) is
-- covered without each repository having to remember it; deleting a lead (or its workspace) cascades.
CREATE TABLE lead_tags (
  lead_id       uuid NOT NULL REFERENCES leads(id) ON DELETE CASCADE ON UPDATE CASCADE,
  tag           text NOT NULL,
  workspace_id  uuid NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (lead_id, tag)
);
-- Walked backwards for newest first: (workspace, tag) then the listing's (created_at, id) keyset.
CREATE INDEX lead_tags_walk ON lead_tags (workspace_id, tag, created_at, lead_id);

-- Inserts: one statement-level trigger over the inserted rows, so a bulk insert adds its tags in one statement too.
-- (INSERT ... ON CONFLICT DO UPDATE lists only the rows it inserted here; the rows it updated fire the update trigger.)
CREATE FUNCTION lead_tags_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_tags (lead_id, tag, workspace_id, created_at)
  SELECT DISTINCT n.id, t.tag, n.workspace_id, n.created_at FROM inserted_leads n, unnest(n.tags) AS t(tag)
  WHERE t.tag IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER leads_tags_inserted AFTER INSERT ON leads REFERENCING NEW TABLE AS inserted_leads
  FOR EACH STATEMENT EXECUTE FUNCTION lead_tags_after_insert();

-- Updates that change the tags (or the copied columns): replace the lead's rows. Other updates do nothing.
CREATE FUNCTION lead_tags_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_tags WHERE lead_id = NEW.id;
  INSERT INTO lead_tags (lead_id, tag, workspace_id, created_at)
  SELECT DISTINCT NEW.id, t.tag, NEW.workspace_id, NEW.created_at FROM unnest(NEW.tags) AS t(tag) WHERE t.tag IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER leads_tags_updated AFTER UPDATE ON leads FOR EACH ROW
  WHEN (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id
        OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION lead_tags_after_update();

-- Backfill the existing leads.
INSERT INTO lead_tags (lead_id, tag, workspace_id, created_at)
SELECT DISTINCT l.id, t.tag, l.workspace_id, l.created_at FROM leads l, unnest(l.tags) AS t(tag) WHERE t.tag IS NOT NULL;

-- The GIN index on leads.tags served only the listing; lead_tags replaces it (one index less on every lead write).
DROP INDEX leads_tags;

-- Name prefix (q). Both obvious plans cost more than a page: the prefix btrees of 012 (ordered by name) find the
-- matches but then sort them all (cost ∝ matches: 111,000 for 'first1' at 1,000,000 leads); walking created_at and
-- filtering costs ∝ the leads newer than the matches (measured: 441 ms against 13 ms when the matches are the oldest
-- 80%). A btree on (workspace, the first k characters of the name, created_at, id) serves "the k-character prefix is
-- q" in page order: cost ∝ page whatever the matches' number or age. One index per k = 1..6 and per name (the full
-- name "first last" and the last name, as q matches either; the listing merges the two walks). Six characters:
-- a longer q is either rare (fewer than a few pages of matches: the 012 btrees find them all and they are sorted,
-- cost bounded by that cap) or walked through its 6-character bucket, checking the rest of q on each lead.
-- Cost: twelve index entries per lead written (names change rarely; lead writes are not a hot path).
-- EXPLAIN (ANALYZE, BUFFERS) at 1,000,000 leads, q = 'first1' (111,112 matches, the newest of them behind 800,000
-- newer leads): the two bucket walks touch 9 buffers (0.26 ms); the 012 btree plan read all 111,112 index entries and
-- the created_at walk 800,000 leads. 'first500000 last500000' (one old lead, longer than six characters): the 012
-- btree finds it in 4 buffers and nothing is walked.
CREATE INDEX leads_full_name_prefix_1 ON leads (workspace_id, left(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 1), created_at, id);
CREATE INDEX leads_full_name_prefix_2 ON leads (workspace_id, left(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 2), created_at, id);
CREATE INDEX leads_full_name_prefix_3 ON leads (workspace_id, left(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 3), created_at, id);
CREATE INDEX leads_full_name_prefix_4 ON leads (workspace_id, left(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 4), created_at, id);
CREATE INDEX leads_full_name_prefix_5 ON leads (workspace_id, left(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 5), created_at, id);
CREATE INDEX leads_full_name_prefix_6 ON leads (workspace_id, left(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 6), created_at, id);
CREATE INDEX leads_last_name_prefix_1 ON leads (workspace_id, left(lower(last_name), 1), created_at, id);
CREATE INDEX leads_last_name_prefix_2 ON leads (workspace_id, left(lower(last_name), 2), created_at, id);
CREATE INDEX leads_last_name_prefix_3 ON leads (workspace_id, left(lower(last_name), 3), created_at, id);
CREATE INDEX leads_last_name_prefix_4 ON leads (workspace_id, left(lower(last_name), 4), created_at, id);
CREATE INDEX leads_last_name_prefix_5 ON leads (workspace_id, left(lower(last_name), 5), created_at, id);
CREATE INDEX leads_last_name_prefix_6 ON leads (workspace_id, left(lower(last_name), 6), created_at, id);
