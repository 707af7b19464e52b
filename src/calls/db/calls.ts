import type { Db, Queryable } from '../../db/pool';
import { releaseCallSlot } from './call-slots';

/**
 * Forgets a call that was never started (its workflow could not be started, or never was): releases its slot and
 * deletes it, only while it is still unstarted (never dialled, still queued). Resolves whether it was deleted.
 */
export async function deleteUnstartedCall(db: Db, callId: string): Promise<boolean> {
  return db.tx(async (q) => {
    // Locked first: a call that got placed meanwhile keeps its row and its slot.
    const unstarted = await q.one("SELECT 1 FROM calls WHERE id = $1 AND provider_sid IS NULL AND status = 'queued' FOR UPDATE", [callId]);
    if (!unstarted) return false;
    await releaseCallSlot(q, callId);
    await q.query('DELETE FROM calls WHERE id = $1', [callId]);
    return true;
  });
}

/**
 * Top-level calls holding a slot that were never dialled and are still queued, created more than olderThanSeconds and
 * less than newerThanSeconds ago, oldest first (migration 030's index): calls whose workflow may never have started.
 */
export async function unstartedCallCandidates(
  db: Queryable,
  q: { olderThanSeconds: number; newerThanSeconds: number; limit: number; workspaceId: string | null },
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM calls
     WHERE slot_taken_at IS NOT NULL AND provider_sid IS NULL AND parent_id IS NULL AND status = 'queued'
       AND created_at < now() - make_interval(secs => $1) AND created_at > now() - make_interval(secs => $2)
       AND ($4::uuid IS NULL OR workspace_id = $4)
     ORDER BY created_at LIMIT $3`,
    [q.olderThanSeconds, q.newerThanSeconds, q.limit, q.workspaceId],
  );
  return rows.map((r) => r.id);
}

/** The provider's sid of a placed call, if it was recorded. */
export async function providerSidOf(db: Queryable, callId: string): Promise<string | null> {
  return (await db.one<{ provider_sid: string | null }>('SELECT provider_sid FROM calls WHERE id = $1', [callId]))?.provider_sid ?? null;
}

/** Which of these provider sids some call (or leg) of ours already carries. */
export async function recordedProviderSids(db: Queryable, sids: string[]): Promise<Set<string>> {
  if (!sids.length) return new Set();
  const rows = await db.query<{ provider_sid: string }>('SELECT provider_sid FROM calls WHERE provider_sid = ANY($1)', [sids]);
  return new Set(rows.map((r) => r.provider_sid));
}

/** Calls placed at the provider that have not ended yet (each holds its concurrent-call slot until it ends). */
export async function openPlacedCallIds(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM calls WHERE slot_taken_at IS NOT NULL AND provider_sid IS NOT NULL AND parent_id IS NULL');
  return rows.map((r) => r.id);
}

/** Records the provider's sid once the call is placed. */
export async function setProviderSid(db: Queryable, callId: string, sid: string): Promise<void> {
  await db.query('UPDATE calls SET provider_sid = $2, updated_at = now() WHERE id = $1 AND provider_sid IS NULL', [callId, sid]);
}

/** One state change of a call or leg, as the workflow applies it. */
export interface CallChange {
  status: string;
  sequence: number;
  answeredBy?: string | null;
  disposition?: string | null;
  at?: string;
  durationSeconds?: number | null;
  transcript?: string | null;
  recordingUrl?: string | null;
}

const TERMINAL = "('completed','busy','no_answer','failed','canceled')";

/** Applies a change to a call (or leg) row unless it is older than what is recorded or the row has ended. */
export async function applyCallChange(db: Queryable, id: string, c: CallChange): Promise<void> {
  await db.query(
    `UPDATE calls SET
       status = $2, sequence = $3,
       answered_by = COALESCE($4, answered_by),
       disposition = COALESCE($5, disposition),
       call_start = CASE WHEN $2 = 'in_progress' THEN COALESCE(call_start, $6::timestamptz) ELSE call_start END,
       call_end = CASE WHEN $2 IN ${TERMINAL} THEN COALESCE(call_end, $6::timestamptz) ELSE call_end END,
       duration = COALESCE($7, duration),
       transcript = COALESCE($8, transcript),
       recording_url = COALESCE($9, recording_url),
       updated_at = now()
     WHERE id = $1 AND sequence < $3 AND status NOT IN ${TERMINAL}`,
    [
      id,
      c.status,
      c.sequence,
      c.answeredBy ?? null,
      c.disposition ?? null,
      c.at ?? new Date().toISOString(),
      c.durationSeconds ?? null,
      c.transcript ?? null,
      c.recordingUrl ?? null,
    ],
  );
}

/** Records a transfer leg `<callId>:<leg>` (idempotent); its phone_from is the lead's number, the call's phone_to. */
export async function createLeg(db: Queryable, callId: string, leg: number, providerSid: string, to: string): Promise<void> {
  await db.query(
    `INSERT INTO calls (id, workspace_id, parent_id, leg, agent_id, lead_id, phone_to, phone_from, direction, provider_sid)
     SELECT $1, workspace_id, id, $2, agent_id, lead_id, $3, phone_to, direction, $4 FROM calls WHERE id = $5
     ON CONFLICT (id) DO NOTHING`,
    [`${callId}:${leg}`, leg, to, providerSid, callId],
  );
}

/** Marks a call transferred (a leg was answered). */
export async function markTransferred(db: Queryable, callId: string): Promise<void> {
  await db.query('UPDATE calls SET transferred = true, updated_at = now() WHERE id = $1', [callId]);
}

/**
 * Ends a call as the workflow decided (timeouts, cancellation, refusals), whatever the provider said last, and frees its
 * concurrent-call slot in the same transaction: the slot goes back exactly when the call's end is written.
 */
export async function endCall(db: Db, callId: string, e: { status: string; outcome: string; endedReason: string }): Promise<void> {
  await db.tx(async (q) => {
    await q.query(
      `UPDATE calls SET
         status = CASE WHEN status IN ${TERMINAL} THEN status ELSE $2 END,
         call_end = CASE WHEN status IN ${TERMINAL} THEN call_end ELSE COALESCE(call_end, now()) END,
         outcome = $3, ended_reason = $4, updated_at = now()
       WHERE id = $1`,
      [callId, e.status, e.outcome, e.endedReason],
    );
    await releaseCallSlot(q, callId);
  });
}

/** A call and its legs in order (a leg's id finds its whole call), as JSON rows; undefined when not the workspace's. */
/** A calls row as `to_jsonb(c)` gives it (timestamps as text): the columns the record shows. */
export interface CallRowJson {
  id: string;
  parent_id: string | null;
  phone_to: string;
  phone_from: string;
  call_start: string | null;
  call_end: string | null;
  disposition: string | null;
  answered_by: string | null;
  agent_id: string | null;
  direction: string;
  transferred: boolean | null;
  status: string;
  ended_reason: string | null;
  duration: number | null;
  transcript: string | null;
  recording_url: string | null;
  request_data: unknown;
  /** The row's other columns (provider_sid, workspace_id, …), as to_jsonb gives them. */
  [column: string]: unknown;
}

export async function callWithLegs(db: Queryable, workspaceId: string, id: string): Promise<CallRowJson[] | undefined> {
  const rows = await db.query<{ row: CallRowJson }>(
    `WITH target AS (SELECT COALESCE(parent_id, id) AS id FROM calls WHERE workspace_id = $1 AND id = $2)
     SELECT to_jsonb(c) AS row FROM calls c, target t
     WHERE c.workspace_id = $1 AND (c.id = t.id OR c.parent_id = t.id)
     ORDER BY c.leg, c.id`,
    [workspaceId, id],
  );
  return rows.length ? rows.map((r) => r.row) : undefined;
}

/** The workspace and status of a (parent) call, for routes that act on it. */
export async function callHeader(db: Queryable, id: string): Promise<{ workspace_id: string; status: string; parent_id: string | null } | undefined> {
  return db.one('SELECT workspace_id, status, parent_id FROM calls WHERE id = $1', [id]);
}
