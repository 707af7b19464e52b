import type { Queryable } from '../../../db/pool';
import type { ImportLead } from '../rows';

/** The import as a chunk's transaction holds it (locked). */
export interface LockedImport {
  workspace_id: string;
  on_conflict: 'skip' | 'update';
  tag: string | null;
  status: string;
  rows_done: number;
  rows_total: number;
  /** A CSV import's header as JSON text: its staged records are arrays of fields in this order (NULL: records staged as objects). */
  columns: string | null;
}

/** A staged record, in row order. */
export interface StagedRow {
  row_number: number;
  line: number;
  record: string;
  problem: string | null;
}

/** What one record did, as lead_import_items keeps it. */
export interface ImportItem {
  row: number;
  line: number;
  leadId: string | null;
  outcome: 'created' | 'updated' | 'skipped' | 'failed';
  reason: string | null;
}

/** Locks the import's row for the chunk's transaction: two chunks of one import never run at once. */
export function lockImport(q: Queryable, importId: string): Promise<LockedImport | undefined> {
  return q.one<LockedImport>('SELECT workspace_id, on_conflict, tag, status, rows_done, rows_total, columns FROM lead_imports WHERE id = $1 FOR UPDATE', [
    importId,
  ]);
}

/**
 * The next `limit` staged records after the import's progress. The index scan starts at the progress, not at the rows
 * earlier chunks deleted (their dead index entries would otherwise be passed over again by every chunk until a vacuum).
 */
export function stagedRows(q: Queryable, importId: string, after: number, limit: number): Promise<StagedRow[]> {
  return q.query<StagedRow>(
    'SELECT row_number, line, record, problem FROM lead_import_rows WHERE import_id = $1 AND row_number > $2 ORDER BY row_number LIMIT $3',
    [importId, after, limit],
  );
}

/** The workspace's leads with these phones: phone → lead id. */
export async function leadIdsByPhone(q: Queryable, workspaceId: string, phones: string[]): Promise<Map<string, string>> {
  if (!phones.length) return new Map();
  const rows = await q.query<{ id: string; phone: string }>('SELECT id, phone FROM leads WHERE workspace_id = $1 AND phone = ANY($2::text[])', [
    workspaceId,
    phones,
  ]);
  return new Map(rows.map((r) => [r.phone, r.id]));
}

// A lead tagged dnc (any case) puts its phone on the do-not-call list, as tagging one through the API does.
const DNC = (src: string) =>
  `INSERT INTO do_not_call (workspace_id, phone, reason)
   SELECT workspace_id, phone, 'tagged dnc' FROM ${src} WHERE EXISTS (SELECT 1 FROM unnest(added) t WHERE lower(t) = 'dnc')
   ON CONFLICT (workspace_id, phone) DO NOTHING`;

/** Inserts new leads in one statement; phone → id of each one inserted (a phone taken meanwhile is left out). */
export async function insertLeads(q: Queryable, workspaceId: string, leads: (ImportLead & { id: string })[]): Promise<Map<string, string>> {
  if (!leads.length) return new Map();
  const rows = await q.query<{ id: string; phone: string }>(
    `WITH input AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS i(id uuid, phone text, first_name text, last_name text, email text,
       company text, timezone text, custom jsonb, tags text[])),
     inserted AS (
       INSERT INTO leads (id, workspace_id, phone, first_name, last_name, email, company, timezone, custom_fields, tags)
       SELECT id, $1, phone, first_name, last_name, email, company, timezone, custom, tags FROM input
       ON CONFLICT (workspace_id, phone) DO NOTHING
       RETURNING id, workspace_id, phone, tags AS added
     ),
     dnc AS (${DNC('inserted')})
     SELECT id, phone FROM inserted`,
    [workspaceId, JSON.stringify(leads.map((l) => ({ id: l.id, phone: l.phone, ...l.standard, custom: l.custom, tags: l.tags })))],
  );
  return new Map(rows.map((r) => [r.phone, r.id]));
}

/** Adds tags to leads (each lead once, no duplicates), in one statement, with the dnc rule. */
export async function addTags(q: Queryable, workspaceId: string, tagsByLead: Map<string, string[]>): Promise<void> {
  const input = [...tagsByLead].filter(([, tags]) => tags.length).map(([id, tags]) => ({ id, tags }));
  if (!input.length) return;
  await q.query(
    `WITH input AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS i(id uuid, tags text[])),
     tagged AS (
       UPDATE leads l SET tags = l.tags || ARRAY(SELECT t FROM unnest(i.tags) t WHERE NOT t = ANY(l.tags)), updated_at = now()
       FROM input i WHERE l.workspace_id = $1 AND l.id = i.id AND NOT i.tags <@ l.tags
       RETURNING l.workspace_id, l.phone, i.tags AS added
     )
     ${DNC('tagged')}`,
    [workspaceId, JSON.stringify(input)],
  );
}

/**
 * Records the chunk's items and progress and deletes its staged rows, in the chunk's transaction: the import is
 * completed when no staged row is left.
 */
export async function finishChunk(
  q: Queryable,
  importId: string,
  workspaceId: string,
  items: ImportItem[],
  lastRow: number,
): Promise<{ rows_done: number; rows_total: number; status: string }> {
  await q.query(
    `INSERT INTO lead_import_items (import_id, workspace_id, row_number, line, lead_id, outcome, reason)
     SELECT $1, $7, * FROM unnest($2::int[], $3::int[], $4::uuid[], $5::text[], $6::text[])`,
    [
      importId,
      items.map((i) => i.row),
      items.map((i) => i.line),
      items.map((i) => i.leadId),
      items.map((i) => i.outcome),
      items.map((i) => i.reason),
      workspaceId,
    ],
  );
  await q.query('DELETE FROM lead_import_rows WHERE import_id = $1 AND row_number <= $2', [importId, lastRow]);
  const count = (o: ImportItem['outcome']) => items.filter((i) => i.outcome === o).length;
  return (await q.one<{ rows_done: number; rows_total: number; status: string }>(
    `UPDATE lead_imports SET rows_done = $2, created = created + $3, updated = updated + $4, skipped = skipped + $5, failed = failed + $6,
       status = CASE WHEN $2 >= rows_total THEN 'completed' ELSE 'running' END,
       started_at = coalesce(started_at, now()), finished_at = CASE WHEN $2 >= rows_total THEN now() END
     WHERE id = $1 RETURNING rows_done, rows_total, status`,
    [importId, lastRow, count('created'), count('updated'), count('skipped'), count('failed')],
  ))!;
}
