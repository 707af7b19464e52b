import type { Queryable } from '../../db/pool';

/** Whose keys a key is among: the workspace and the credential that sent it (`key:<api key id>` or `user:<user id>`). */
export interface IdempotencyScope {
  workspaceId: string;
  caller: string;
}

/** A stored idempotency record: the request's hash and, once the first request finished, its response. */
export interface IdempotencyRecord {
  request_hash: Buffer;
  status_code: number | null;
  response_body: unknown;
  /** The run the stored answer named, if any. */
  workflow_id: string | null;
}

/**
 * Claims (workspace, caller, key) for a request: a new key, an expired record (24 h) or a claim left by a crash (5 minutes)
 * is taken over; true when this request now holds the claim.
 */
export async function claimIdempotencyKey(db: Queryable, scope: IdempotencyScope, key: string, requestHash: Buffer): Promise<boolean> {
  const row = await db.one(
    `INSERT INTO idempotency_keys AS k (workspace_id, caller, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (workspace_id, caller, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status_code = NULL, response_body = NULL, workflow_id = NULL, created_at = now()
       WHERE k.created_at < now() - interval '24 hours' OR (k.status_code IS NULL AND k.created_at < now() - interval '5 minutes')
     RETURNING 1 AS claimed`,
    [scope.workspaceId, scope.caller, key, requestHash],
  );
  return row !== undefined;
}

/** The record held under (workspace, caller, key), if any. */
export function findIdempotencyRecord(db: Queryable, scope: IdempotencyScope, key: string): Promise<IdempotencyRecord | undefined> {
  return db.one<IdempotencyRecord>(
    'SELECT request_hash, status_code, response_body, workflow_id FROM idempotency_keys WHERE workspace_id = $1 AND caller = $2 AND key = $3',
    [scope.workspaceId, scope.caller, key],
  );
}

/**
 * Stores the response a claimed key replays from now on, with the run it named (if any), and the request's final hash
 * when only known by now.
 */
export async function storeIdempotentResponse(
  db: Queryable,
  scope: IdempotencyScope,
  key: string,
  response: { status: number; body: unknown; workflowId?: string | undefined },
  requestHash?: Buffer,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET status_code = $4, response_body = $5, workflow_id = $6, request_hash = coalesce($7, request_hash)
     WHERE workspace_id = $1 AND caller = $2 AND key = $3`,
    [scope.workspaceId, scope.caller, key, response.status, JSON.stringify(response.body), response.workflowId ?? null, requestHash ?? null],
  );
}

/** Gives a claim up, so a retry with the key runs again. */
export async function releaseIdempotencyKey(db: Queryable, scope: IdempotencyScope, key: string): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE workspace_id = $1 AND caller = $2 AND key = $3', [scope.workspaceId, scope.caller, key]);
}

/**
 * Deletes records older than 24 h in every workspace: the one statement not scoped to a workspace, as it is a sweep
 * by age that reads nothing back (expired keys are also taken over one by one by claimIdempotencyKey).
 */
export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<void> {
  await db.query("DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'");
}
