import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool';

/** A stored connection as the table holds it (secrets still sealed). */
export interface ConnectionRow {
  id: string;
  workspace_id: string;
  user_id: string | null;
  integration: string;
  kind: string;
  settings: Record<string, string>;
  credentials_enc: Buffer;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  refreshed_at: Date | null;
  /** Set when the vendor refused a refresh (migration 025); cleared when the connection is made again. */
  broken_at: Date | null;
  broken_reason: string | null;
}

/** Every column a ConnectionRow holds. */
export const CONNECTION_COLUMNS =
  'id, workspace_id, user_id, integration, kind, settings, credentials_enc, expires_at, created_at, updated_at, refreshed_at, broken_at, broken_reason';
const COLUMNS = CONNECTION_COLUMNS;

/**
 * Creates the connection of a user (or of the workspace, userId null) to an integration, replacing the one it had.
 * seal gets the row's id, which the envelope is bound to.
 */
export async function upsertConnection(
  db: Queryable,
  c: { workspaceId: string; userId: string | null; integration: string; kind: string; settings: Record<string, string>; expiresAt: Date | null },
  seal: (id: string) => Buffer,
): Promise<{ row: ConnectionRow; replaced: boolean }> {
  const existing = await db.one<{ id: string }>(
    `SELECT id FROM integration_connections WHERE workspace_id = $1 AND integration = $2 AND user_id IS NOT DISTINCT FROM $3 FOR UPDATE`,
    [c.workspaceId, c.integration, c.userId],
  );
  const id = existing?.id ?? randomUUID();
  const row = await db.one<ConnectionRow>(
    `INSERT INTO integration_connections (id, workspace_id, user_id, integration, kind, settings, credentials_enc, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, settings = EXCLUDED.settings, credentials_enc = EXCLUDED.credentials_enc,
       expires_at = EXCLUDED.expires_at, updated_at = now(), refreshed_at = NULL, tested_at = NULL, broken_at = NULL, broken_reason = NULL
     RETURNING ${COLUMNS}`,
    [id, c.workspaceId, c.userId, c.integration, c.kind, JSON.stringify(c.settings), seal(id), c.expiresAt],
  );
  return { row: row!, replaced: existing !== undefined };
}

/** The workspace's connections (of every user and its own). */
export async function listConnectionRows(db: Queryable, workspaceId: string): Promise<ConnectionRow[]> {
  return db.query<ConnectionRow>(`SELECT ${COLUMNS} FROM integration_connections WHERE workspace_id = $1 ORDER BY integration, created_at`, [workspaceId]);
}

/** Deletes a connection of the workspace; false when there is none with that id. */
export async function deleteConnectionRow(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM integration_connections WHERE workspace_id = $1 AND id = $2 RETURNING id', [workspaceId, id])).length > 0;
}

/** The connection of a user (userId null: the workspace's own) to an integration. */
export async function findConnectionRow(
  db: Queryable,
  q: { workspaceId: string; userId: string | null; integration: string },
): Promise<ConnectionRow | undefined> {
  return db.one<ConnectionRow>(
    `SELECT ${COLUMNS} FROM integration_connections WHERE workspace_id = $1 AND integration = $2 AND user_id IS NOT DISTINCT FROM $3`,
    [q.workspaceId, q.integration, q.userId],
  );
}

/** The connection's row, locked until the transaction ends (one token refresh at a time, across processes). */
export async function lockConnectionRow(db: Queryable, id: string): Promise<ConnectionRow | undefined> {
  return db.one<ConnectionRow>(`SELECT ${COLUMNS} FROM integration_connections WHERE id = $1 FOR UPDATE`, [id]);
}

/** Stores refreshed secrets and their expiry. */
export async function updateConnectionSecrets(db: Queryable, id: string, credentialsEnc: Buffer, expiresAt: Date | null): Promise<void> {
  await db.query('UPDATE integration_connections SET credentials_enc = $2, expires_at = $3, refreshed_at = now(), updated_at = now() WHERE id = $1', [
    id,
    credentialsEnc,
    expiresAt,
  ]);
}
