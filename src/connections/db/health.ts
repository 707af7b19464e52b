import type { Queryable } from '../../db/pool';
import { CONNECTION_COLUMNS, type ConnectionRow } from './connections';

/** One of the workspace's connections by id (undefined for another workspace's). */
export async function findConnectionById(db: Queryable, workspaceId: string, id: string): Promise<ConnectionRow | undefined> {
  return db.one<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM integration_connections WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
}

/** Marks a connection broken (why and when); the row when this call broke it, undefined when it already was (or is gone). */
export async function markConnectionBroken(db: Queryable, id: string, reason: string): Promise<ConnectionRow | undefined> {
  return db.one<ConnectionRow>(
    `UPDATE integration_connections SET broken_at = now(), broken_reason = $2, updated_at = now()
     WHERE id = $1 AND broken_at IS NULL RETURNING ${CONNECTION_COLUMNS}`,
    [id, reason.slice(0, 500)],
  );
}

/** OAuth connections, not broken, whose access token expires before `before` (of one workspace, or all): the ids a scheduled refresh renews. */
export async function connectionsExpiringBefore(db: Queryable, before: Date, limit: number, workspaceId: string | null = null): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM integration_connections
     WHERE kind = 'oauth2' AND broken_at IS NULL AND expires_at IS NOT NULL AND expires_at < $1
       AND ($3::uuid IS NULL OR workspace_id = $3)
     ORDER BY expires_at LIMIT $2`,
    [before, limit, workspaceId],
  );
  return rows.map((r) => r.id);
}

/** A connection's row by id alone (the refresh schedule's activity, which works across workspaces). */
export async function connectionRowById(db: Queryable, id: string): Promise<ConnectionRow | undefined> {
  return db.one<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM integration_connections WHERE id = $1`, [id]);
}

/**
 * Claims a vendor test of a connection: records now as its tested_at unless it was tested less than cooldownSeconds
 * ago (one claim wins of concurrent ones, whichever process makes it). undefined: claimed; else the whole seconds
 * until the next test may start.
 */
export async function claimConnectionTest(db: Queryable, workspaceId: string, id: string, cooldownSeconds: number): Promise<number | undefined> {
  const claimed = await db.one<{ id: string }>(
    `UPDATE integration_connections SET tested_at = now()
     WHERE workspace_id = $1 AND id = $2 AND (tested_at IS NULL OR tested_at <= now() - make_interval(secs => $3))
     RETURNING id`,
    [workspaceId, id, cooldownSeconds],
  );
  if (claimed) return undefined;
  const row = await db.one<{ wait: number }>(
    `SELECT GREATEST(1, ceil(extract(epoch FROM tested_at + make_interval(secs => $3) - now())))::int AS wait
     FROM integration_connections WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id, cooldownSeconds],
  );
  return row?.wait ?? 1;
}
