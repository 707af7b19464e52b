// One function per step kind of a journey; journey.ts runs them in order.
import { ActivityFailure, ApplicationFailure, deprecatePatch, isCancellation, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { JourneyActivities, StepContext } from '../../activities/journeys/journeys';
import { branchReason, branchTarget, outcomeOnly } from '../../src/journeys/conditions';
import { parseIsoDuration } from '../../src/schedule/duration';
import type { JourneyStep, StepKind, StepOf } from '../../src/journeys/schema';
import { runAutomationStep } from './journey-automation';
import { runCallStep } from './journey-call';
import { runTriggerStep } from './journey-trigger';
import type { JourneyClock } from './journey-clock';

// Which failures are final is decided once, at the activity boundary (worker/activity-errors.ts): they raise them non-retryable.

const dataOptions = {
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
/** Database activities: short, retried until the database answers (a restart must not fail a journey). */
const remoteData = proxyActivities<JourneyActivities>(dataOptions);
// The enrollment's own reads and writes run locally, inside the workflow task: no activity task and no workflow task
// of their own through the server (each was two trips and 6 history events; P3 in bench/journeys.ts). Each is safe to
// run twice, as a local activity of a worker that dies may be. Only those that read or write the enrollment's own row:
// a local activity holds a workflow-task slot while it runs, so steps that write the lead (whose row other writers may
// lock) stay activity tasks (remoteData), or a batch of them waiting on locks would hold every slot of the worker and
// stall its other journeys (journeys-crash.test.ts).
const localData = proxyLocalActivities<JourneyActivities>(dataOptions);

/**
 * The journey's database activities, local. The journey-local-data patch is deprecated (docs/workflow-versioning.md):
 * its marker stays where the first of them runs, as in the runs recorded with patched().
 */
const data = new Proxy({} as typeof localData, {
  get: (_t, name) => {
    deprecatePatch('journey-local-data');
    return localData[name as keyof JourneyActivities];
  },
});

/** Webhooks: 5xx, 408, 429 and network errors retried with backoff for about 8 minutes, then the step fails. */
const hooks = proxyActivities<JourneyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 9 },
});

export { data as journeyData };

/** How a step went: its outcome (null for control steps, which leave the last outcome as it was) and where to go. */
export interface StepResult {
  outcome: string | null;
  detail?: string;
  /** A step id to go to instead of the next one in the list. */
  next?: string;
  end?: boolean;
}

/** A step that cannot go on (its lead was deleted): the enrollment ends as failed. */
export class JourneyStepError extends Error {}

/** Runs fn; an activity failure of a `soft` type ('*': any) becomes outcome 'failed'; a lead that is gone ends the journey. */
async function guarded(fn: () => Promise<StepResult>, soft: string[] = []): Promise<StepResult> {
  try {
    return await fn();
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure || err instanceof ApplicationFailure)) throw err;
    const failure = activityFailure(err);
    if (failure?.type === 'lead_not_found') throw new JourneyStepError(failure.message);
    if (soft.includes('*') || soft.includes(failure?.type ?? '')) {
      return {
        outcome: 'failed',
        detail: `${failure?.type ?? 'activity_failed'}: ${failure?.message ?? (err as ActivityFailure).cause?.message ?? err.message}`,
      };
    }
    throw err;
  }
}

/** The application failure an activity failed with: a regular activity's comes inside an ActivityFailure, a local one's bare. */
const activityFailure = (err: unknown): ApplicationFailure | undefined =>
  err instanceof ActivityFailure ? (err.cause instanceof ApplicationFailure ? err.cause : undefined) : err instanceof ApplicationFailure ? err : undefined;

/** The application failure type behind an activity failure, if any. */
export const failureType = (err: unknown): string | undefined => activityFailure(err)?.type ?? undefined;

type Runner<K extends StepKind> = (step: StepOf<K>, ctx: StepContext, lastOutcome: string | undefined, clock: JourneyClock) => Promise<StepResult>;

const isoAt = (ms: number) => new Date(ms).toISOString();

const runners: { [K in StepKind]: Runner<K> } = {
  async wait(step, ctx, _last, clock) {
    return guarded(async () => {
      let ms: number;
      let zone = '';
      if (step.duration !== undefined) {
        await data.journeyAtStep({ enrollmentId: ctx.enrollmentId, stepId: ctx.stepId });
        ms = parseIsoDuration(step.duration)!;
      } else {
        const delay = await data.journeyWindowDelay({ ...ctx, until: step.until! });
        ms = delay.ms;
        zone = ` (window ${step.until!.start}-${step.until!.end} ${delay.timeZone})`;
      }
      if (ms > 0) await clock.sleep(ms);
      // A preview says how long and until when; real runs record no detail, as before.
      return clock.preview ? { outcome: 'done', detail: `waits ${ms} ms until ${isoAt(clock.now())}${zone}` } : { outcome: 'done' };
    });
  },
  tag: (step, ctx) => guarded(async () => (await remoteData.journeyTag({ ...ctx, tag: step.tag, remove: false }), { outcome: 'done' })),
  untag: (step, ctx) => guarded(async () => (await remoteData.journeyTag({ ...ctx, tag: step.tag, remove: true }), { outcome: 'done' })),
  update_lead: (step, ctx) =>
    guarded(async () => {
      const { ignored } = await remoteData.journeyUpdateLead({ ...ctx, fields: step.fields });
      return { outcome: 'done', detail: ignored.length ? `ignored fields: ${ignored.join(', ')}` : undefined };
    }, ['invalid_fields']),
  webhook: (step, ctx, _last, clock) =>
    guarded(async () => {
      const r = await hooks.journeyWebhook({ ...ctx, url: step.url, payload: step.payload });
      // A preview's recorder sends nothing; it assumes delivery, so the branch after it follows `delivered`.
      const detail = clock.preview ? `not sent: would POST to ${step.url} (event ${r.eventId}); assumed delivered` : `HTTP ${r.status} ${r.eventId}`;
      return { outcome: 'delivered', detail };
    }, ['*']),
  async branch(step, ctx, lastOutcome, clock) {
    let why: string | undefined;
    let target: string;
    if (outcomeOnly(step)) {
      const facts = { tags: [], fields: {}, lastOutcome };
      target = branchTarget(step, facts);
      if (clock.preview) why = branchReason(step, facts);
    } else {
      const r = await guarded(async () => {
        const decided = await data.journeyBranch({ ...ctx, step, lastOutcome });
        why = decided.why;
        return { outcome: null, next: decided.target };
      });
      target = r.next!;
    }
    return { outcome: null, next: target, detail: why ? `goto ${target}: ${why}` : `goto ${target}` };
  },
  goto: async (step) => ({ outcome: null, next: step.target, detail: `goto ${step.target}` }),
  end: async () => ({ outcome: null, end: true }),
  call: (step, ctx, _last, clock) => guarded(() => runCallStep(step, ctx, data, clock)),
  // A preview runs no automation (its outcome is not knowable): it assumes `done`. Deprecated patch automation-step
  // (runs from before it skipped the step).
  automation: (step, ctx, _last, clock) => {
    if (clock.preview) {
      return Promise.resolve({ outcome: 'done', detail: `not run: would run ${step.automationType} ${step.action}; outcome not knowable, assumed done` });
    }
    deprecatePatch('automation-step');
    return guarded(() => runAutomationStep(step, ctx));
  },
  // No patch: no history recorded before this step kind existed can hold one.
  trigger: (step, ctx, _last, clock) => guarded(() => runTriggerStep(step, ctx, clock)),
};

/** Runs one step for one enrollment, on the run's clock (a preview's is virtual). */
export function runStep(step: JourneyStep, ctx: StepContext, lastOutcome: string | undefined, clock: JourneyClock): Promise<StepResult> {
  return (runners[step.kind] as Runner<StepKind>)(step, ctx, lastOutcome, clock);
}
