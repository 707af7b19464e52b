// Concurrent-call slots: one counter row per workspace (call_slot_counts.used) and, on each call holding a slot, its
// slot_taken_at. Every statement here moves both together, so the counter is the number of calls holding a slot.
import type { Db, Queryable } from '../../db/pool';

/** Hours after which a slot is taken back from a call that never released it. */
const STALE_SLOT_HOURS = 6;

/** The channel a released slot is announced on (payload: the workspace id), for calls waiting for one. */
export const CALL_SLOT_CHANNEL = 'call_slot_released';

/**
 * SQL of a CTE named `slot` that takes one of workspace $2's slots: a row when taken, none at the cap. The upsert's
 * row lock on the counter is held only for the statement, and the cap is read inside it.
 */
const TAKE_SLOT_CTE = `slot AS (
  INSERT INTO call_slot_counts AS c (workspace_id, used)
  SELECT w.id, 1 FROM workspaces w WHERE w.id = $2::uuid AND w.max_concurrent_calls > 0
  ON CONFLICT (workspace_id) DO UPDATE SET used = c.used + 1
    WHERE c.used < (SELECT max_concurrent_calls FROM workspaces WHERE id = $2::uuid)
  RETURNING 1)`;

/** What taking a slot for a call came to: taken (or held already), none free, or the call has ended (or is unknown). */
export type SlotTake = 'taken' | 'full' | 'ended';

/**
 * Takes a slot for a recorded call that has not ended (a no-op 'taken' when it holds one). The call row's lock keeps
 * two takers for the same call (a retried activity) from taking two, and an ended call (its end written, its slot
 * released) from taking one again.
 */
export async function acquireCallSlot(db: Db, workspaceId: string, callId: string): Promise<SlotTake> {
  const taken = await db.tx(async (q): Promise<SlotTake> => {
    const call = await q.one<{ held: boolean; ended: boolean }>(
      'SELECT slot_taken_at IS NOT NULL AS held, outcome IS NOT NULL AS ended FROM calls WHERE id = $1 AND workspace_id = $2 FOR UPDATE',
      [callId, workspaceId],
    );
    if (!call || call.ended) return 'ended';
    if (call.held) return 'taken';
    const row = await q.one<{ ok: boolean }>(
      `WITH ${TAKE_SLOT_CTE},
       mark AS (UPDATE calls SET slot_taken_at = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM slot))
       SELECT EXISTS (SELECT 1 FROM slot) AS ok`,
      [callId, workspaceId],
    );
    return row!.ok ? 'taken' : 'full';
  });
  if (taken !== 'full') return taken;
  return (await reclaimStaleSlots(db, workspaceId)) > 0 ? acquireCallSlot(db, workspaceId, callId) : 'full';
}

/**
 * Frees the call's slot if it holds one: clears its slot_taken_at and decrements the counter in one statement, so
 * that concurrent or repeated releases free it once. Announces the free slot to waiting calls.
 */
export async function releaseCallSlot(db: Queryable, callId: string): Promise<void> {
  await db.query(
    `WITH freed AS (UPDATE calls SET slot_taken_at = NULL WHERE id = $1 AND slot_taken_at IS NOT NULL RETURNING workspace_id),
     counted AS (UPDATE call_slot_counts c SET used = c.used - 1 FROM freed WHERE c.workspace_id = freed.workspace_id)
     SELECT pg_notify('${CALL_SLOT_CHANNEL}', workspace_id::text) FROM freed`,
    [callId],
  );
}

/**
 * A run an operator terminated never releases its slot; no call lasts this long, so such slots are taken back (each
 * at most once, as in releaseCallSlot). Returns how many were freed.
 */
export async function reclaimStaleSlots(db: Queryable, workspaceId: string): Promise<number> {
  const row = await db.one<{ n: number }>(
    `WITH freed AS (UPDATE calls SET slot_taken_at = NULL
                    WHERE workspace_id = $1 AND slot_taken_at < now() - interval '${STALE_SLOT_HOURS} hours' RETURNING 1),
     counted AS (UPDATE call_slot_counts SET used = used - (SELECT count(*)::int FROM freed)
                 WHERE workspace_id = $1 AND EXISTS (SELECT 1 FROM freed))
     SELECT count(*)::int AS n FROM freed`,
    [workspaceId],
  );
  return row!.n;
}
