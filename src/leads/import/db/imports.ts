import { from as copyFrom } from 'pg-copy-streams';
import type { Writable } from 'node:stream';
import type { Db, Queryable } from '../../../db/pool';

/** An import's row, as GET answers it; position is the keyset cursor's timestamp (microseconds, UTC). */
export interface ImportRow {
  id: string;
  format: 'csv' | 'ndjson';
  on_conflict: 'skip' | 'update';
  tag: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  rows_total: number;
  rows_done: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  message: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  position: string;
}

/** What a new import is made of. */
export interface NewImport {
  id: string;
  workspaceId: string;
  format: 'csv' | 'ndjson';
  onConflict: 'skip' | 'update';
  tag?: string;
}

const COLUMNS = `id, format, on_conflict, tag, status, rows_total, rows_done, created, updated, skipped, failed, message, created_at,
  started_at, finished_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position`;

/**
 * Creates the import and COPYs its records into lead_import_rows, in one transaction on a connection of its own: an
 * upload that fails half-way (malformed, too large, the client gone) leaves nothing behind. write streams the records
 * into the COPY and returns how many it wrote (and a CSV file's header, kept with the import).
 */
export async function storeUpload<T extends { rows: number; columns?: string[] }>(db: Db, imp: NewImport, write: (copy: Writable) => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  // A checked-out client has no listener of the pool's: its connection failing mid-upload (the database restarted, a
  // write to its closed socket: EPIPE) is an 'error' event that, unheard, ends the process. It fails this upload instead.
  let copy: Writable | undefined;
  const onError = (err: Error) => copy?.destroy(err);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await client.query('INSERT INTO lead_imports (id, workspace_id, format, on_conflict, tag) VALUES ($1, $2, $3, $4, $5)', [
      imp.id,
      imp.workspaceId,
      imp.format,
      imp.onConflict,
      imp.tag ?? null,
    ]);
    copy = client.query(copyFrom('COPY lead_import_rows (import_id, workspace_id, row_number, line, record, problem) FROM STDIN'));
    const result = await write(copy);
    await client.query('UPDATE lead_imports SET rows_total = $2, columns = $3 WHERE id = $1', [
      imp.id,
      result.rows,
      result.columns ? JSON.stringify(result.columns) : null,
    ]);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    // The connection may be mid-COPY: dropped rather than reused (the open transaction dies with it).
    client.release(err as Error);
    throw err;
  } finally {
    // Released, the client has the pool's listener again.
    client.removeListener('error', onError);
  }
}

/** The workspace's import, or undefined (another workspace's too). */
export function findImport(db: Queryable, workspaceId: string, id: string): Promise<ImportRow | undefined> {
  return db.one<ImportRow>(`SELECT ${COLUMNS} FROM lead_imports WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
}

/** One page of the workspace's imports, newest first (created_at, id), after the given position. */
export function listImports(db: Queryable, workspaceId: string, limit: number, after?: { createdAt: string; id: string }): Promise<ImportRow[]> {
  const params: unknown[] = [workspaceId, limit];
  const keyset = after ? `AND (created_at, id) < ($${params.push(after.createdAt)}::timestamptz, $${params.push(after.id)}::uuid)` : '';
  return db.query<ImportRow>(`SELECT ${COLUMNS} FROM lead_imports WHERE workspace_id = $1 ${keyset} ORDER BY created_at DESC, id DESC LIMIT $2`, params);
}

/** The import's first failed rows, in row order. */
export function importErrors(db: Queryable, importId: string, limit: number): Promise<{ row: number; line: number; reason: string }[]> {
  return db.query(`SELECT row_number AS row, line, reason FROM lead_import_items WHERE import_id = $1 AND outcome = 'failed' ORDER BY row_number LIMIT $2`, [
    importId,
    limit,
  ]);
}

/** Ends an import that cannot go on, with the reason; a completed import stays completed. */
export async function failImport(db: Queryable, importId: string, message: string): Promise<void> {
  await db.query(`UPDATE lead_imports SET status = 'failed', message = $2, finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')`, [
    importId,
    message,
  ]);
}
