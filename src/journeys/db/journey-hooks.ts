import type { Db, Queryable } from '../../db/pool';

/** A URL a workspace subscribed to one trigger step of one journey (a REST hook). */
export interface JourneyHookRow {
  id: string;
  journey_id: string;
  step_id: string;
  url: string;
  platform: string;
  created_at: Date;
  /** The keyset cursor's timestamp (microseconds, UTC). */
  position: string;
}

const COLUMNS = `id, journey_id, step_id, url, platform, created_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position`;

/**
 * Subscribes a URL to a step; the same (journey, step, url) again answers the hook it already has (created false).
 * undefined when the workspace already holds max hooks (or is gone).
 */
export async function subscribeJourneyHook(
  db: Db,
  h: { id: string; workspaceId: string; journeyId: string; stepId: string; url: string; platform: string },
  max: number,
): Promise<{ hook: JourneyHookRow; created: boolean } | undefined> {
  return db.tx(async (q) => {
    // The workspace row lock serialises concurrent subscribes, so the count and the unique check see each other.
    if (!(await q.one('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [h.workspaceId]))) return undefined;
    const existing = await q.one<JourneyHookRow>(
      `SELECT ${COLUMNS} FROM journey_hooks WHERE workspace_id = $1 AND journey_id = $2 AND step_id = $3 AND url = $4`,
      [h.workspaceId, h.journeyId, h.stepId, h.url],
    );
    if (existing) return { hook: existing, created: false };
    const hook = await q.one<JourneyHookRow>(
      `INSERT INTO journey_hooks (id, workspace_id, journey_id, step_id, url, platform)
       SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT count(*) FROM journey_hooks WHERE workspace_id = $2) < $7
       RETURNING ${COLUMNS}`,
      [h.id, h.workspaceId, h.journeyId, h.stepId, h.url, h.platform, max],
    );
    return hook ? { hook, created: true } : undefined;
  });
}

/** A hook's latest settled delivery. */
export interface HookDeliveryRow {
  event_id: string;
  outcome: HookOutcome;
  http_status: number | null;
  detail: string | null;
  /** As jsonb renders it (ISO-8601 with the database's offset). */
  settled_at: string;
}

/** One page of the workspace's hooks, newest first (created_at, id), after the given position, each with its latest delivery. */
export function listJourneyHooks(
  db: Queryable,
  workspaceId: string,
  limit: number,
  after?: { at: string; id: string },
): Promise<(JourneyHookRow & { last_delivery: HookDeliveryRow | null })[]> {
  const params: unknown[] = [workspaceId, limit];
  const keyset = after ? `AND (created_at, id) < ($${params.push(after.at)}::timestamptz, $${params.push(after.id)}::uuid)` : '';
  return db.query(
    `SELECT h.*, (SELECT to_jsonb(d) FROM (SELECT event_id, outcome, http_status, detail, settled_at FROM journey_hook_deliveries
                                           WHERE hook_id = h.id ORDER BY settled_at DESC LIMIT 1) d) AS last_delivery
     FROM (SELECT ${COLUMNS} FROM journey_hooks WHERE workspace_id = $1 ${keyset} ORDER BY created_at DESC, id DESC LIMIT $2) h
     ORDER BY h.created_at DESC, h.id DESC`,
    params,
  );
}

/** Deletes the workspace's hooks with this id or this url; the ids deleted (none: nothing matched). */
export async function deleteJourneyHooks(db: Queryable, workspaceId: string, by: { id: string } | { url: string }): Promise<string[]> {
  const [column, value] = 'id' in by ? ['id', by.id] : ['url', by.url];
  const rows = await db.query<{ id: string }>(`DELETE FROM journey_hooks WHERE workspace_id = $1 AND ${column} = $2 RETURNING id`, [workspaceId, value]);
  return rows.map((r) => r.id);
}

/** The hooks of a trigger step that have not settled this event yet. */
export function pendingJourneyHooks(
  db: Queryable,
  e: { workspaceId: string; journeyId: string; stepId: string; eventId: string },
): Promise<{ id: string; url: string }[]> {
  return db.query<{ id: string; url: string }>(
    `SELECT h.id, h.url FROM journey_hooks h
     WHERE h.workspace_id = $1 AND h.journey_id = $2 AND h.step_id = $3
       AND NOT EXISTS (SELECT 1 FROM journey_hook_deliveries d WHERE d.event_id = $4 AND d.hook_id = h.id)
     ORDER BY h.created_at, h.id`,
    [e.workspaceId, e.journeyId, e.stepId, e.eventId],
  );
}

/** How a hook settled an event. */
export type HookOutcome = 'delivered' | 'rejected' | 'blocked' | 'failed';

/** Records that a hook settled an event; a second record is a no-op. */
export async function settleJourneyHook(
  db: Queryable,
  d: { eventId: string; hookId: string; workspaceId: string; outcome: HookOutcome; httpStatus?: number; detail?: string },
): Promise<void> {
  await db.query(
    `INSERT INTO journey_hook_deliveries (event_id, hook_id, workspace_id, outcome, http_status, detail)
     SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM journey_hooks WHERE id = $2)
     ON CONFLICT DO NOTHING`,
    [d.eventId, d.hookId, d.workspaceId, d.outcome, d.httpStatus ?? null, d.detail?.slice(0, 500) ?? null],
  );
}

/** The settled deliveries of one event, by hook. */
export function hookDeliveriesOf(
  db: Queryable,
  workspaceId: string,
  eventId: string,
): Promise<{ hook_id: string; outcome: HookOutcome; http_status: number | null }[]> {
  return db.query('SELECT hook_id, outcome, http_status FROM journey_hook_deliveries WHERE workspace_id = $1 AND event_id = $2 ORDER BY settled_at', [
    workspaceId,
    eventId,
  ]);
}

/** How many hooks a journey's step has. */
export async function journeyHookCount(db: Queryable, workspaceId: string, journeyId: string, stepId: string): Promise<number> {
  const row = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM journey_hooks WHERE workspace_id = $1 AND journey_id = $2 AND step_id = $3', [
    workspaceId,
    journeyId,
    stepId,
  ]);
  return row?.n ?? 0;
}

/** Keeps a trigger event's body; the first one saved wins (a retried step keeps the same body). */
export async function saveTriggerEvent(
  db: Queryable,
  e: { eventId: string; workspaceId: string; journeyId: string; stepId: string; body: string },
): Promise<void> {
  await db.query('INSERT INTO journey_trigger_events (event_id, workspace_id, journey_id, step_id, body) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
    e.eventId,
    e.workspaceId,
    e.journeyId,
    e.stepId,
    e.body,
  ]);
}

/** A trigger event's body, as saved when the enrollment reached the step. */
export async function triggerEventBody(db: Queryable, workspaceId: string, eventId: string): Promise<string | undefined> {
  return (await db.one<{ body: string }>('SELECT body FROM journey_trigger_events WHERE workspace_id = $1 AND event_id = $2', [workspaceId, eventId]))?.body;
}
