import { ApplicationFailure } from '@temporalio/activity';
import { connectionEventBody, type ConnectionEventInput } from '../../src/connections/events';
import { findConnectionById } from '../../src/connections/db/health';
import { presentConnection } from '../../src/connections/store';
import type { Db } from '../../src/db/pool';
import { pendingCallSubscribers, settleCallEvent } from '../../src/calls/db/call-events';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { deliverWebhook } from '../../src/webhooks/webhook';
import type { Logger } from '../../src/telemetry/log';
import { ssrfAllowlist } from '../../src/net/ssrf';

/** The failure a publish raises while some subscriber can still take the event later (retried with backoff). */
export const CONNECTION_EVENT_UNDELIVERED = 'connection_event_undelivered';

/** Connection event delivery to the workspace's subscribers (the call events' subscriptions and ledger). */
export function createConnectionEventActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };
  return {
    /** POSTs the event, signed like every webhook, to each subscriber that has not settled it; throws while any can still take it. */
    async publishConnectionEvent(e: ConnectionEventInput): Promise<{ delivered: number; refused: number }> {
      const subscribers = await pendingCallSubscribers(db, e.workspaceId, e.type, e.eventId);
      if (subscribers.length === 0) return { delivered: 0, refused: 0 };
      const [row, secrets] = await Promise.all([findConnectionById(db, e.workspaceId, e.connectionId), webhookSecrets(db, e.workspaceId)]);
      if (!row || !secrets) return { delivered: 0, refused: 0 }; // deleted meanwhile: nothing to tell
      const body = connectionEventBody(e, presentConnection(row));
      const keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
      const results = await Promise.all(
        subscribers.map(async (s) => {
          const r = await deliverWebhook({ url: s.url, body, secrets: keys, eventId: e.eventId }, ssrf);
          if (r.ok || !r.retryable) {
            const outcome = r.ok ? 'delivered' : r.status === undefined ? 'blocked' : 'rejected';
            await settleCallEvent(db, { eventId: e.eventId, subscriptionId: s.id, workspaceId: e.workspaceId, outcome, httpStatus: r.status });
          }
          if (!r.ok) deps.logger.info({ connectionId: e.connectionId, subscriptionId: s.id, eventId: e.eventId, reason: r.reason }, 'connection event not delivered');
          return r;
        }),
      );
      const retry = results.filter((r) => !r.ok && r.retryable);
      if (retry.length) {
        const after = Math.max(0, ...retry.map((r) => (!r.ok && r.retryAfterMs) || 0));
        throw ApplicationFailure.create({ type: CONNECTION_EVENT_UNDELIVERED, message: `${retry.length} of ${subscribers.length} subscribers did not take the event`, nextRetryDelay: after || undefined });
      }
      const delivered = results.filter((r) => r.ok).length;
      return { delivered, refused: results.length - delivered };
    },
  };
}

export type ConnectionEventActivities = ReturnType<typeof createConnectionEventActivities>;
