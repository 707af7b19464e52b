-- Bulk lead imports (issue 26). An upload is COPYed into lead_import_rows (one row per record, as JSON text so a value
-- Postgres cannot store fails only its own row later), then a leadImport workflow applies the rows in chunks by row
-- number. Each chunk's transaction writes the leads, one lead_import_items row per record and the import's progress
-- (rows_done and the counts), and deletes its staged rows: a chunk is applied entirely or not at all, and never twice.
CREATE TABLE lead_imports (
  id            uuid PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  format        text NOT NULL CHECK (format IN ('csv', 'ndjson')),
  on_conflict   text NOT NULL CHECK (on_conflict IN ('skip', 'update')),
  tag           text,
  status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  rows_total    integer NOT NULL DEFAULT 0,
  rows_done     integer NOT NULL DEFAULT 0,
  created       integer NOT NULL DEFAULT 0,
  updated       integer NOT NULL DEFAULT 0,
  skipped       integer NOT NULL DEFAULT 0,
  failed        integer NOT NULL DEFAULT 0,
  message       text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  UNIQUE (id, workspace_id)
);
CREATE INDEX lead_imports_list ON lead_imports (workspace_id, created_at, id);

-- Staged records not yet applied: line is the file line the record ends on (for error messages), problem why the
-- parser already knows it cannot be a lead (e.g. a CSV record with more fields than the header).
CREATE TABLE lead_import_rows (
  import_id     uuid NOT NULL,
  workspace_id  uuid NOT NULL,
  row_number  integer NOT NULL,
  line        integer NOT NULL,
  record      text NOT NULL,
  problem     text,
  PRIMARY KEY (import_id, row_number),
  FOREIGN KEY (import_id, workspace_id) REFERENCES lead_imports (id, workspace_id) ON DELETE CASCADE
);

-- What each record did: lead_id is the lead it created or updated (null when skipped or failed).
CREATE TABLE lead_import_items (
  import_id     uuid NOT NULL,
  workspace_id  uuid NOT NULL,
  row_number  integer NOT NULL,
  line        integer NOT NULL,
  lead_id     uuid REFERENCES leads(id) ON DELETE SET NULL,
  outcome     text NOT NULL CHECK (outcome IN ('created', 'updated', 'skipped', 'failed')),
  reason      text,
  PRIMARY KEY (import_id, row_number),
  FOREIGN KEY (import_id, workspace_id) REFERENCES lead_imports (id, workspace_id) ON DELETE CASCADE
);
CREATE INDEX lead_import_items_failed ON lead_import_items (import_id, row_number) WHERE outcome = 'failed';
CREATE INDEX lead_import_items_lead ON lead_import_items (lead_id) WHERE lead_id IS NOT NULL;
