import type { Db, Queryable } from '../../db/pool';
import type { SubscriptionEventType } from '../events';

/** A URL a workspace subscribed to call events. */
export interface CallSubscription {
  id: string;
  url: string;
  events: SubscriptionEventType[];
  created_at: Date;
}

const COLUMNS = 'id, url, events, created_at';

/** Inserts a subscription unless the workspace already has max of them; undefined when it is full (or gone). */
export async function createCallSubscription(
  db: Db,
  s: { id: string; workspaceId: string; url: string; events: SubscriptionEventType[] },
  max: number,
): Promise<CallSubscription | undefined> {
  return db.tx(async (q) => {
    // The workspace row lock serialises concurrent creates; the count runs after it, in a snapshot of its own.
    if (!(await q.one('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [s.workspaceId]))) return undefined;
    return q.one<CallSubscription & Record<string, unknown>>(
      `INSERT INTO call_subscriptions (id, workspace_id, url, events)
       SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM call_subscriptions WHERE workspace_id = $2) < $5
       RETURNING ${COLUMNS}`,
      [s.id, s.workspaceId, s.url, s.events, max],
    );
  });
}

/** The workspace's subscriptions, oldest first. */
export async function listCallSubscriptions(db: Queryable, workspaceId: string): Promise<CallSubscription[]> {
  return db.query<CallSubscription & Record<string, unknown>>(`SELECT ${COLUMNS} FROM call_subscriptions WHERE workspace_id = $1 ORDER BY created_at, id`, [
    workspaceId,
  ]);
}

/** Deletes one of the workspace's subscriptions; false when it has none with this id. */
export async function deleteCallSubscription(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM call_subscriptions WHERE workspace_id = $1 AND id = $2 RETURNING id', [workspaceId, id]);
  return rows.length > 0;
}

/** The subscriptions of an event type that have not settled this event yet. */
export async function pendingCallSubscribers(
  db: Queryable,
  workspaceId: string,
  type: SubscriptionEventType,
  eventId: string,
): Promise<{ id: string; url: string }[]> {
  return db.query<{ id: string; url: string }>(
    `SELECT s.id, s.url FROM call_subscriptions s
     WHERE s.workspace_id = $1 AND $2 = ANY (s.events)
       AND NOT EXISTS (SELECT 1 FROM call_event_deliveries d WHERE d.event_id = $3 AND d.subscription_id = s.id)
     ORDER BY s.created_at, s.id`,
    [workspaceId, type, eventId],
  );
}

/** Records that a subscription settled an event (delivered or refused for good); a second record is a no-op. */
export async function settleCallEvent(
  db: Queryable,
  d: { eventId: string; subscriptionId: string; workspaceId: string; outcome: 'delivered' | 'rejected' | 'blocked'; httpStatus?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO call_event_deliveries (event_id, subscription_id, workspace_id, outcome, http_status)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [d.eventId, d.subscriptionId, d.workspaceId, d.outcome, d.httpStatus ?? null],
  );
}
