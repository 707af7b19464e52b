import type { Queryable } from '../pool';

/** A stored idempotency record: the request's hash and, once the first request finished, its response. */
export interface IdempotencyRecord {
  request_hash: Buffer;
  status_code: number | null;
  response_body: unknown;
}

/**
 * Claims (workspace, key) for a request: a new key, an expired record (24 h) or a claim left by a crash (5 minutes)
 * is taken over; true when this request now holds the claim.
 */
export async function claimIdempotencyKey(db: Queryable, workspaceId: string, key: string, requestHash: Buffer): Promise<boolean> {
  const row = await db.one(
    `INSERT INTO idempotency_keys AS k (workspace_id, key, request_hash) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status_code = NULL, response_body = NULL, created_at = now()
       WHERE k.created_at < now() - interval '24 hours' OR (k.status_code IS NULL AND k.created_at < now() - interval '5 minutes')
     RETURNING 1 AS claimed`,
    [workspaceId, key, requestHash],
  );
  return row !== undefined;
}

/** The record held under (workspace, key), if any. */
export function findIdempotencyRecord(db: Queryable, workspaceId: string, key: string): Promise<IdempotencyRecord | undefined> {
  return db.one<IdempotencyRecord>(
    'SELECT request_hash, status_code, response_body FROM idempotency_keys WHERE workspace_id = $1 AND key = $2',
    [workspaceId, key],
  );
}

/** Stores the response a claimed key replays from now on. */
export async function storeIdempotentResponse(db: Queryable, workspaceId: string, key: string, status: number, body: unknown): Promise<void> {
  await db.query('UPDATE idempotency_keys SET status_code = $3, response_body = $4 WHERE workspace_id = $1 AND key = $2', [
    workspaceId,
    key,
    status,
    JSON.stringify(body),
  ]);
}

/** Gives a claim up, so a retry with the key runs again. */
export async function releaseIdempotencyKey(db: Queryable, workspaceId: string, key: string): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE workspace_id = $1 AND key = $2', [workspaceId, key]);
}

/**
 * Deletes records older than 24 h in every workspace: the one statement not scoped to a workspace, as it is a sweep
 * by age that reads nothing back (expired keys are also taken over one by one by claimIdempotencyKey).
 */
export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<void> {
  await db.query("DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'");
}
