import { Context } from '@temporalio/activity';
import { presentCallRecord } from '../../src/calls/call-record';
import { callEventBody, type CallEventType } from '../../src/calls/events';
import type { Db } from '../../src/db/pool';
import { callWithLegs } from '../../src/calls/db/calls';
import { publishToSubscribers } from '../webhooks/subscribers';
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
const CALL_EVENT_UNDELIVERED = 'call_event_undelivered';

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
      return publishToSubscribers(
        { ...deps, ssrf },
        e,
        async () => {
          const rows = await callWithLegs(db, e.workspaceId, e.callId);
          if (!rows) return undefined; // the call or its workspace is gone: nothing to tell
          const [call, ...legs] = rows.map(presentCallRecord);
          // created_at is when the event was first scheduled, so every retry sends the same body.
          return callEventBody({ eventId: e.eventId, type: e.type, createdAt: new Date(scheduledAt()), call, legs });
        },
        { failureType: CALL_EVENT_UNDELIVERED, logFields: { callId: e.callId } },
      );
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
