import { ApplicationFailure, Context } from '@temporalio/activity';
import { presentCallRecord } from '../../src/calls/events-records';
import { callEventBody, type CallEventType } from '../../src/calls/events';
import type { Db } from '../../src/db/pool';
import { pendingCallSubscribers, settleCallEvent } from '../../src/calls/db/call-events';
import { callWithLegs } from '../../src/calls/db/calls';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { deliverWebhook } from '../../src/webhooks/webhook';
import type { Logger } from '../../src/telemetry/log';
import { ssrfAllowlist } from '../../src/net/ssrf';

/** What publishCallEvent is asked to send: one event of one call, its id stable across retries. */
export interface CallEventInput {
  workspaceId: string;
  callId: string;
  type: CallEventType;
  eventId: string;
}

/** The failure a publish raises while some subscriber can still take the event later (retried with backoff). */
export const CALL_EVENT_UNDELIVERED = 'call_event_undelivered';

/** Call event delivery to the workspace's subscribers. */
export function createCallEventActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };

  return {
    /**
     * POSTs the event, signed like the journey webhooks, to every subscriber of its type that has not settled it
     * yet; a delivery (or a final refusal: another 4xx, a blocked address) is recorded, so a retry only re-sends to
     * subscribers still failing. Throws a retryable failure while any of those remain.
     */
    async publishCallEvent(e: CallEventInput): Promise<{ delivered: number; refused: number }> {
      const subscribers = await pendingCallSubscribers(db, e.workspaceId, e.type, e.eventId);
      if (subscribers.length === 0) return { delivered: 0, refused: 0 };
      const [rows, secrets] = await Promise.all([callWithLegs(db, e.workspaceId, e.callId), webhookSecrets(db, e.workspaceId)]);
      if (!rows || !secrets) return { delivered: 0, refused: 0 }; // the call or its workspace is gone: nothing to tell
      const [call, ...legs] = rows.map(presentCallRecord);
      // created_at is when the event was first scheduled, so every retry sends the same body.
      const body = callEventBody({ eventId: e.eventId, type: e.type, createdAt: new Date(scheduledAt()), call, legs });
      const keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
      const results = await Promise.all(
        subscribers.map(async (s) => {
          const r = await deliverWebhook({ url: s.url, body, secrets: keys, eventId: e.eventId }, ssrf);
          if (r.ok || !r.retryable) {
            const outcome = r.ok ? 'delivered' : r.status === undefined ? 'blocked' : 'rejected';
            await settleCallEvent(db, { eventId: e.eventId, subscriptionId: s.id, workspaceId: e.workspaceId, outcome, httpStatus: r.status });
          }
          if (!r.ok) deps.logger.info({ callId: e.callId, subscriptionId: s.id, eventId: e.eventId, reason: r.reason }, 'call event not delivered');
          return r;
        }),
      );
      const retry = results.filter((r) => !r.ok && r.retryable);
      if (retry.length) {
        const after = Math.max(0, ...retry.map((r) => (!r.ok && r.retryAfterMs) || 0));
        throw ApplicationFailure.create({
          type: CALL_EVENT_UNDELIVERED,
          message: `${retry.length} of ${subscribers.length} subscribers did not take the event`,
          nextRetryDelay: after || undefined,
        });
      }
      return { delivered: results.filter((r) => r.ok).length, refused: results.length - results.filter((r) => r.ok).length };
    },
  };
}

/** When the activity was first scheduled (stable across retries); now outside an activity (direct calls in tests). */
function scheduledAt(): number {
  try {
    return Context.current().info.scheduledTimestampMs;
  } catch {
    return Date.now();
  }
}

export type CallEventActivities = ReturnType<typeof createCallEventActivities>;
