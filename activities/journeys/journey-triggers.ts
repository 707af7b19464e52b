import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../../src/db/pool';
import { lastCallOfLead } from '../../src/automation/db/automation-runs';
import { setEnrollmentStep } from '../../src/journeys/db/enrollments';
import { journeyHookCount, pendingJourneyHooks, saveTriggerEvent, settleJourneyHook, triggerEventBody } from '../../src/journeys/db/journey-hooks';
import { leadForJourney } from '../../src/journeys/db/journey-runtime';
import { presentLead } from '../../src/leads/db/leads';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { TRIGGER_DELIVERY_ATTEMPTS, type TriggerEventInput } from '../../src/journeys/trigger';
import { deliverWebhook, type DeliveryResult } from '../../src/webhooks/webhook';
import type { Logger } from '../../src/telemetry/log';
import type { StepContext } from './journeys';
import { ssrfAllowlist } from '../../src/net/ssrf';

/** The failure a delivery raises while some hook can still take the event later (retried with backoff). */
export const TRIGGER_UNDELIVERED = 'trigger_undelivered';

/** What one delivery attempt did. */
export interface TriggerDeliverySummary {
  delivered: number;
  refused: number;
  failed: number;
}

/** What the step knows when it runs. */
export interface TriggerStepEvent extends StepContext {
  eventId: string;
  stepName?: string;
}

/** The body a trigger step POSTs: the step's data with the workspace id under both names clients read. */
function triggerBody(e: TriggerStepEvent, createdAt: Date, lead: Record<string, unknown>, call: Record<string, unknown> | undefined): string {
  return JSON.stringify({
    id: e.eventId,
    event_id: e.eventId,
    type: 'journey.trigger',
    created_at: createdAt.toISOString(),
    account_id: e.workspaceId,
    accountId: e.workspaceId,
    journey_id: e.journeyId,
    step_id: e.stepId,
    step_name: e.stepName ?? e.stepId,
    enrollment_id: e.enrollmentId,
    lead_id: e.leadId,
    lead,
    call: call ?? null,
  });
}

const leadGone = () => ApplicationFailure.create({ type: 'lead_not_found', message: 'the lead no longer exists', nonRetryable: true });

/** Trigger step deliveries to the REST hooks subscribed to the step. */
export function createJourneyTriggerActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };

  return {
    /**
     * Saves the step's data as it is now (the lead and its last call) under the event id, when the step has hooks;
     * how many it has (0: nothing to deliver).
     */
    async journeyTriggerEvent(e: TriggerStepEvent): Promise<{ hooks: number }> {
      const [hooks] = await Promise.all([journeyHookCount(db, e.workspaceId, e.journeyId, e.stepId), setEnrollmentStep(db, e.enrollmentId, e.stepId)]);
      if (hooks === 0) return { hooks };
      const [lead, call] = await Promise.all([leadForJourney(db, e.workspaceId, e.leadId), lastCallOfLead(db, e.workspaceId, e.leadId)]);
      if (!lead) throw leadGone();
      const body = triggerBody(e, new Date(scheduledAt()), presentLead(lead) as Record<string, unknown>, call);
      await saveTriggerEvent(db, { eventId: e.eventId, workspaceId: e.workspaceId, journeyId: e.journeyId, stepId: e.stepId, body });
      return { hooks };
    },

    /**
     * POSTs the event, signed like the journey webhooks, to every hook of the step that has not settled it yet. A
     * delivery or a final refusal (another 4xx, a blocked address) is recorded at once; hooks still failing make the
     * attempt throw (retried with backoff), and on the last attempt they are recorded as failed instead.
     */
    async publishJourneyTrigger(e: TriggerEventInput): Promise<TriggerDeliverySummary> {
      const none = { delivered: 0, refused: 0, failed: 0 };
      const hooks = await pendingJourneyHooks(db, e);
      if (hooks.length === 0) return none;
      const [body, secrets] = await Promise.all([triggerEventBody(db, e.workspaceId, e.eventId), webhookSecrets(db, e.workspaceId)]);
      if (!body || !secrets) return none; // the workspace is gone: nothing to tell
      const keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
      const last = attempt() >= TRIGGER_DELIVERY_ATTEMPTS;
      const results = await Promise.all(
        hooks.map(async (h): Promise<DeliveryResult> => {
          const r = await deliverWebhook({ url: h.url, body, secrets: keys, eventId: e.eventId }, ssrf);
          if (r.ok || !r.retryable || last) {
            const outcome = r.ok ? 'delivered' : r.retryable ? 'failed' : r.status === undefined ? 'blocked' : 'rejected';
            await settleJourneyHook(db, {
              eventId: e.eventId,
              hookId: h.id,
              workspaceId: e.workspaceId,
              outcome,
              httpStatus: r.status,
              detail: r.ok ? undefined : r.reason,
            });
          }
          if (!r.ok) deps.logger.info({ journeyId: e.journeyId, hookId: h.id, eventId: e.eventId, reason: r.reason }, 'journey trigger not delivered');
          return r;
        }),
      );
      const retry = results.filter((r) => !r.ok && r.retryable);
      if (retry.length && !last) {
        const after = Math.max(0, ...retry.map((r) => (!r.ok && r.retryAfterMs) || 0));
        throw ApplicationFailure.create({
          type: TRIGGER_UNDELIVERED,
          message: `${retry.length} of ${hooks.length} hooks did not take the event`,
          nextRetryDelay: after || undefined,
        });
      }
      const delivered = results.filter((r) => r.ok).length;
      return { delivered, refused: results.length - delivered - retry.length, failed: retry.length };
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

/** The activity's attempt (1 outside an activity: direct calls in tests). */
function attempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

export type JourneyTriggerActivities = ReturnType<typeof createJourneyTriggerActivities>;
