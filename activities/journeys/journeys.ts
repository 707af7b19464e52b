import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../../src/db/pool';
import { finishEnrollment, recordEnrollmentStart, setEnrollmentStep } from '../../src/journeys/db/enrollments';
import { judgeLeadCall } from '../../src/calls/admission';
import { leadForJourney } from '../../src/journeys/db/journey-runtime';
import { journeyVersionSteps } from '../../src/journeys/db/journeys';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { addTag, customFieldKeys, presentLead, removeTag, STANDARD_FIELDS, updateLead } from '../../src/leads/db/leads';
import { branchTarget } from '../../src/journeys/conditions';
import { parseJourneySteps, type JourneyStep, type StepOf } from '../../src/journeys/schema';
import type { TimeWindow } from '../../src/schedule/window-schema';
import { deliverWebhook, renderTemplate, webhookEventId } from '../../src/webhooks/webhook';
import { ssrfAllowlist } from '../../src/net/ssrf';
import { isTimeZone, msUntilWindow } from '../../src/schedule/window';
import { splitRecord } from '../../src/leads/record';
import type { Logger } from '../../src/telemetry/log';
import type { PreviewLead } from '../../workflows/journeys/journey-messages';

/** Which enrollment and step an activity acts for; seq numbers the step runs of one enrollment. */
export interface StepContext {
  enrollmentId: string;
  workspaceId: string;
  leadId: string;
  journeyId: string;
  stepId: string;
  seq: number;
  /** Only in a preview run: its virtual time at the step and the lead when given as a record. */
  preview?: { now: number; lead?: PreviewLead };
}

/** Failure types journey activities raise; all but `webhook_unavailable` are final (raised non-retryable). */
export const JOURNEY_FAILURES = {
  leadGone: 'lead_not_found',
  invalidFields: 'invalid_fields',
  webhookRejected: 'webhook_rejected',
  webhookBlocked: 'ssrf_blocked',
  webhookUnavailable: 'webhook_unavailable',
} as const;

const leadGone = () => ApplicationFailure.create({ type: JOURNEY_FAILURES.leadGone, message: 'the lead no longer exists', nonRetryable: true });

/** Journey activities. Each is safe to run twice: upserts, set operations, and webhooks carrying a stable event id. */
export function createJourneyActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };
  const lead = async (c: StepContext) => (await leadForJourney(db, c.workspaceId, c.leadId)) ?? Promise.reject(leadGone());

  return {
    async journeyStarted(c: StepContext & { version: number; workflowId: string; runId: string }): Promise<void> {
      try {
        await recordEnrollmentStart(db, { id: c.enrollmentId, currentStep: c.stepId, ...c });
      } catch (err) {
        if ((err as { code?: string }).code === '23503') throw leadGone(); // the lead (or journey) was deleted meanwhile
        throw err;
      }
    },

    /** A version's validated steps (for a run that starts over on a new enrollment). */
    async journeySteps(c: { workspaceId: string; journeyId: string; version: number }): Promise<JourneyStep[]> {
      const steps = await journeyVersionSteps(db, c.workspaceId, c.journeyId, c.version);
      if (steps === undefined)
        throw ApplicationFailure.create({ type: 'journey_not_found', message: 'the journey version no longer exists', nonRetryable: true });
      try {
        return parseJourneySteps(steps);
      } catch (err) {
        throw ApplicationFailure.create({ type: 'invalid_journey', message: (err as Error).message, nonRetryable: true });
      }
    },

    async journeyAtStep(c: { enrollmentId: string; stepId: string; runId?: string }): Promise<void> {
      await setEnrollmentStep(db, c.enrollmentId, c.stepId, c.runId);
    },

    async journeyFinished(c: { enrollmentId: string; status: 'completed' | 'unenrolled' | 'failed'; stepId: string | null; detail?: string }) {
      await finishEnrollment(db, c.enrollmentId, c.status, c.stepId, c.detail ?? null);
    },

    async journeyTag(c: StepContext & { tag: string; remove: boolean }): Promise<void> {
      const [row] = await Promise.all([(c.remove ? removeTag : addTag)(db, c.workspaceId, c.leadId, c.tag), setEnrollmentStep(db, c.enrollmentId, c.stepId)]);
      if (!row) throw leadGone();
    },

    /** Sets standard fields and the workspace's defined custom fields; returns the names it ignored. */
    async journeyUpdateLead(c: StepContext & { fields: Record<string, string | null> }): Promise<{ ignored: string[] }> {
      // A bad field is a DomainError (invalid_fields): final at the activity boundary (worker/activity-errors.ts).
      const split = splitRecord(c.fields, await customFieldKeys(db, c.workspaceId));
      const [row] = await Promise.all([updateLead(db, c.workspaceId, c.leadId, split.standard, split.custom), setEnrollmentStep(db, c.enrollmentId, c.stepId)]);
      if (!row) throw leadGone();
      return { ignored: split.ignored };
    },

    async journeyWebhook(c: StepContext & { url: string; payload?: unknown }): Promise<{ status: number; eventId: string }> {
      const [l, secrets] = await Promise.all([lead(c), webhookSecrets(db, c.workspaceId), setEnrollmentStep(db, c.enrollmentId, c.stepId)]);
      const eventId = webhookEventId(c.enrollmentId, c.stepId, c.seq);
      const ids = { event_id: eventId, journey_id: c.journeyId, enrollment_id: c.enrollmentId, step_id: c.stepId, lead_id: c.leadId };
      const vars = { ...ids, lead: presentLead(l) };
      const body = c.payload === undefined ? { id: eventId, type: 'journey.webhook', ...vars } : renderTemplate(c.payload, vars);
      const result = await deliverWebhook(
        { url: c.url, body: JSON.stringify(body), secrets: [secrets!.current, ...(secrets!.previous ? [secrets!.previous] : [])], eventId },
        ssrf,
      );
      if (result.ok) return { status: result.status, eventId };
      deps.logger.info({ enrollmentId: c.enrollmentId, stepId: c.stepId, reason: result.reason }, 'webhook not delivered');
      if (result.retryable) {
        throw ApplicationFailure.create({ type: JOURNEY_FAILURES.webhookUnavailable, message: result.reason, nextRetryDelay: result.retryAfterMs });
      }
      const type = result.status === undefined ? JOURNEY_FAILURES.webhookBlocked : JOURNEY_FAILURES.webhookRejected;
      throw ApplicationFailure.create({ type, message: result.reason, nonRetryable: true });
    },

    /** Decides a branch on the lead's tags and fields (read here, so no personal data enters the workflow history). */
    async journeyBranch(c: StepContext & { step: StepOf<'branch'>; lastOutcome?: string }): Promise<{ target: string; why?: string }> {
      const l = await lead(c);
      const fields: Record<string, unknown> = { ...l.custom_fields };
      for (const key of ['phone', ...STANDARD_FIELDS] as const) fields[key] = l[key];
      return { target: branchTarget(c.step, { tags: l.tags, fields, lastOutcome: c.lastOutcome }) };
    },

    /** Milliseconds until the window opens in the lead's time zone (else the workspace's, else UTC). */
    async journeyWindowDelay(c: StepContext & { until: TimeWindow }): Promise<{ ms: number; timeZone: string }> {
      const [l] = await Promise.all([lead(c), setEnrollmentStep(db, c.enrollmentId, c.stepId)]);
      const timeZone = [l.timezone, l.workspace_timezone].find((tz): tz is string => !!tz && isTimeZone(tz)) ?? 'UTC';
      return { ms: msUntilWindow(Date.now(), c.until, timeZone), timeZone };
    },

    /**
     * Whom a call step calls: the lead's phone, unless call admission (src/calls/admission.ts) refuses it for the
     * do-not-call list or an agent that is not the workspace's (the call itself judges the rest).
     */
    async journeyCallTarget(c: StepContext & { agentId: string }): Promise<{ skip: 'dnc' | 'unknown_agent' } | { skip: null; phone: string }> {
      const [l] = await Promise.all([lead(c), setEnrollmentStep(db, c.enrollmentId, c.stepId)]);
      const verdict = await judgeLeadCall(db, { workspaceId: c.workspaceId, agentId: c.agentId, to: l.phone, leadId: c.leadId });
      if (!verdict.ok && verdict.code === 'do_not_call') return { skip: 'dnc' };
      if (!verdict.ok && verdict.code === 'invalid_agent') return { skip: 'unknown_agent' };
      return { skip: null, phone: l.phone };
    },
  };
}

export type JourneyActivities = ReturnType<typeof createJourneyActivities>;
