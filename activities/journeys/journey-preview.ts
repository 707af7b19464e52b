// Recorders: the journey activities of a preview run (the preview task queue's worker registers them under the same
// names). They read what the real ones read and write nothing, send nothing, and answer as the real ones would.
import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../../src/db/pool';
import type { Logger } from '../../src/telemetry/log';
import { judgeCall } from '../../src/calls/admission';
import { readAdmissionFacts } from '../../src/calls/db/admission';
import { branchReason, branchTarget } from '../../src/journeys/conditions';
import { leadForJourney, workspaceFactsForPhone } from '../../src/journeys/db/journey-runtime';
import { journeyHookCount } from '../../src/journeys/db/journey-hooks';
import { customFieldKeys, STANDARD_FIELDS } from '../../src/leads/db/leads';
import { splitRecord } from '../../src/leads/record';
import { isTimeZone, msUntilWindow } from '../../src/schedule/window';
import type { TimeWindow } from '../../src/schedule/window-schema';
import { webhookEventId } from '../../src/webhooks/webhook';
import { checkUrl, ssrfAllowlist } from '../../src/net/ssrf';
import type { OutboundCallInput } from '../../workflows/calls/outbound-call-types';
import type { PreviewLead } from '../../workflows/journeys/journey-messages';
import type { JourneyTriggerActivities } from './journey-triggers';
import { createJourneyActivities, JOURNEY_FAILURES, type JourneyActivities, type StepContext } from './journeys';

const leadGone = () => ApplicationFailure.create({ type: JOURNEY_FAILURES.leadGone, message: 'the lead no longer exists', nonRetryable: true });

/** How a preview's call would be judged at its virtual time: refused (why), or when its window opens. */
export type PreviewCallVerdict = { ok: false; reason: string } | { ok: true; opensInMs: number; timeZone: string; window: TimeWindow };

/** The preview worker's activities: every journey activity a run calls, as a recorder, and the preview's call judge. */
export function createJourneyPreviewActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };
  /** The lead as the real activities read it: on file, or the record the preview was given. */
  const lead = async (c: StepContext) => {
    const given = c.preview?.lead;
    if (!given) return (await leadForJourney(db, c.workspaceId, c.leadId)) ?? Promise.reject(leadGone());
    return { ...given, ...((await workspaceFactsForPhone(db, c.workspaceId, given.phone)) ?? Promise.reject(leadGone())) };
  };
  const now = (c: StepContext) => c.preview?.now ?? Date.now();
  const nothing = async () => undefined;
  const real = createJourneyActivities({ db, logger: deps.logger, ssrfAllowlist: [] });

  const recorders: JourneyActivities & Pick<JourneyTriggerActivities, 'journeyTriggerEvent'> = {
    journeyStarted: nothing,
    journeySteps: real.journeySteps, // a read
    journeyAtStep: nothing,
    journeyFinished: nothing,
    async journeyTag(c) {
      await lead(c);
    },
    async journeyUpdateLead(c) {
      await lead(c);
      return { ignored: splitRecord(c.fields, await customFieldKeys(db, c.workspaceId)).ignored };
    },
    async journeyWebhook(c) {
      await lead(c);
      // An address the real send would refuse without a request (an IP literal not allowed) fails as it would there.
      try {
        checkUrl(c.url, ssrf);
      } catch (err) {
        throw ApplicationFailure.create({ type: JOURNEY_FAILURES.webhookBlocked, message: `blocked: ${(err as Error).message}`, nonRetryable: true });
      }
      return { status: 0, eventId: webhookEventId(c.enrollmentId, c.stepId, c.seq) };
    },
    async journeyBranch(c) {
      const l = await lead(c);
      const fields: Record<string, unknown> = { ...l.custom_fields };
      for (const key of ['phone', ...STANDARD_FIELDS] as const) fields[key] = l[key];
      const facts = { tags: l.tags, fields, lastOutcome: c.lastOutcome };
      return { target: branchTarget(c.step, facts), why: branchReason(c.step, facts) };
    },
    async journeyWindowDelay(c) {
      const l = await lead(c);
      const timeZone = [l.timezone, l.workspace_timezone].find((tz): tz is string => !!tz && isTimeZone(tz)) ?? 'UTC';
      return { ms: msUntilWindow(now(c), c.until, timeZone), timeZone };
    },
    async journeyCallTarget(c) {
      const l = await lead(c);
      if (l.on_dnc) return { skip: 'dnc' };
      const facts = await readAdmissionFacts(db, { workspaceId: c.workspaceId, agentId: c.agentId, to: l.phone });
      return facts?.agentId ? { skip: null, phone: l.phone } : { skip: 'unknown_agent' };
    },
    async journeyTriggerEvent(e) {
      await lead(e);
      return { hooks: await journeyHookCount(db, e.workspaceId, e.journeyId, e.stepId) };
    },
  };
  return {
    ...recorders,
    /** Judges the call as the outboundCall workflow's admission would at `now` (window and caller id); records nothing. */
    async journeyPreviewCall(c: OutboundCallInput & { now: number; lead?: PreviewLead }): Promise<PreviewCallVerdict> {
      const facts = await readAdmissionFacts(db, { workspaceId: c.workspaceId, agentId: c.agentId, to: c.to, leadId: c.lead ? null : c.leadId });
      const v = judgeCall(facts && c.lead ? { ...facts, leadTimezone: c.lead.timezone } : facts, { to: c.to, window: c.window }, c.now, {
        waitForWindow: true,
      });
      return v.ok ? { ok: true, opensInMs: v.opensInMs, timeZone: v.zone, window: v.window } : { ok: false, reason: v.code };
    },
  };
}

export type JourneyPreviewActivities = ReturnType<typeof createJourneyPreviewActivities>;
