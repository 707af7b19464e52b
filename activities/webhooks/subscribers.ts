import { ApplicationFailure } from '@temporalio/activity';
import { pendingCallSubscribers, settleCallEvent } from '../../src/calls/db/call-events';
import type { SUBSCRIPTION_EVENT_TYPES } from '../../src/calls/events';
import type { Db } from '../../src/db/pool';
import type { Logger } from '../../src/telemetry/log';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { deliverWebhook } from '../../src/webhooks/webhook';
import type { SsrfOptions } from '../../src/net/ssrf';

type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];

/** One event for a workspace's subscriptions (call, connection and campaign events alike), its id stable across retries. */
export interface SubscriptionEvent {
  workspaceId: string;
  type: SubscriptionEventType;
  eventId: string;
}

/**
 * Sends an event to every subscription of its type that has not settled it yet, signed like every webhook (current
 * and previous secret); a delivery or a final refusal (another 4xx, a blocked address) is recorded, so a retry only
 * re-sends to the subscribers still failing. Throws a retryable failure of `failureType` while any remain (after the
 * longest Retry-After they asked for). `bodyOf` builds the body once; undefined: the subject is gone, nothing to tell.
 */
export async function publishToSubscribers(
  deps: { db: Db; logger: Logger; ssrf: SsrfOptions },
  e: SubscriptionEvent,
  bodyOf: () => Promise<string | undefined>,
  o: { failureType: string; logFields: Record<string, string> },
): Promise<{ delivered: number; refused: number }> {
  const { db } = deps;
  const subscribers = await pendingCallSubscribers(db, e.workspaceId, e.type, e.eventId);
  if (subscribers.length === 0) return { delivered: 0, refused: 0 };
  const [body, secrets] = await Promise.all([bodyOf(), webhookSecrets(db, e.workspaceId)]);
  if (body === undefined || !secrets) return { delivered: 0, refused: 0 };
  const keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
  const results = await Promise.all(
    subscribers.map(async (s) => {
      const r = await deliverWebhook({ url: s.url, body, secrets: keys, eventId: e.eventId }, deps.ssrf);
      if (r.ok || !r.retryable) {
        const outcome = r.ok ? 'delivered' : r.status === undefined ? 'blocked' : 'rejected';
        await settleCallEvent(db, { eventId: e.eventId, subscriptionId: s.id, workspaceId: e.workspaceId, outcome, httpStatus: r.status });
      }
      if (!r.ok) deps.logger.info({ ...o.logFields, subscriptionId: s.id, eventId: e.eventId, reason: r.reason }, `${e.type} not delivered`);
      return r;
    }),
  );
  const retry = results.filter((r) => !r.ok && r.retryable);
  if (retry.length) {
    const after = Math.max(0, ...retry.map((r) => (!r.ok && r.retryAfterMs) || 0));
    throw ApplicationFailure.create({
      type: o.failureType,
      message: `${retry.length} of ${subscribers.length} subscribers did not take the event`,
      nextRetryDelay: after || undefined,
    });
  }
  const delivered = results.filter((r) => r.ok).length;
  return { delivered, refused: results.length - delivered };
}
