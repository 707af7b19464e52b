// journeyEnrollment: one lead in one journey version, step after step, for as long as the journey lasts.
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  deprecatePatch,
  isCancellation,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { StepContext } from '../../activities/journeys/journeys';
import type { JourneyStep } from '../../src/journeys/schema';
import { SA } from '../../src/temporal/search-attribute-keys';
import { failureType, journeyData as data, JourneyStepError, runStep, type StepResult } from './journey-steps';
import { virtualClock, workflowClock } from './journey-clock';
import {
  ALREADY_ACTIVE,
  enrollSignal,
  enrollUpdate,
  HISTORY_TAIL,
  journeyStateQuery,
  NOT_ACTIVE,
  PREVIEW_STEP_LIMIT,
  unenrollSignal,
  unenrollUpdate,
  type CarriedState,
  type EnrollmentStatus,
  type JourneyInput,
  type JourneyState,
} from './journey-messages';

const DEFAULT_MAX_STEPS_PER_RUN = 200;

/**
 * Interprets a journey version's steps for one lead (id `enrollment:<journeyId>:<leadId>`). Update (or signal)
 * `unenroll` stops it; update `enroll` restarts a run that is ending; query `journeyState` shows the current step
 * and the steps done. Continues as new before its history grows large, carrying the position, the last outcome and
 * the tail of the step history. However the run ends, its enrollment row ends too (failed when the run fails).
 */
export async function journeyEnrollment(input: JourneyInput): Promise<JourneyState> {
  const { steps } = input;
  const state: CarriedState = input.resume ?? { enrollmentId: uuid4(), pc: 0, seq: 0, history: [] };
  const indexOf = new Map(steps.map((s, i) => [s.id, i]));
  // A preview (input.preview, on the preview task queue whose activities only record) waits on a virtual clock.
  const clock = input.preview ? virtualClock(input.preview.at) : workflowClock;
  const { preview } = input;
  let status: EnrollmentStatus = 'active';
  let unenrolled: string | undefined;
  let current: CancellationScope | undefined;
  let again: { version: number } | undefined;
  /** The enrollment row has been given its final status (what the unenroll update waits for). */
  let recorded = false;
  /** An enroll update (never in runs recorded before it existed) asked to start over. */
  let againByUpdate = false;

  const snapshot = (): JourneyState => ({
    enrollment_id: state.enrollmentId,
    journey_id: input.journeyId,
    version: input.version,
    status,
    current_step: steps[Math.min(state.pc, steps.length - 1)]?.id ?? null,
    last_outcome: state.lastOutcome ?? null,
    history: state.history,
  });
  setHandler(journeyStateQuery, snapshot);
  const stopping = () => status !== 'active' || unenrolled !== undefined;
  const unenroll = (reason: string | undefined) => {
    if (stopping()) return;
    unenrolled = reason || 'unenrolled';
    current?.cancel();
  };
  setHandler(unenrollSignal, (arg) => unenroll(arg?.reason));
  setHandler(
    unenrollUpdate,
    async (arg) => {
      unenroll(arg.reason);
      await condition(() => recorded);
      return snapshot();
    },
    {
      validator: (_arg) => {
        if (stopping()) throw ApplicationFailure.create({ type: NOT_ACTIVE, message: 'the enrollment is no longer active', nonRetryable: true });
      },
    },
  );
  setHandler(enrollSignal, (request) => {
    if (stopping()) again = request;
  });
  // Rejected while active: a rejected update leaves no event in the history, so duplicates cost the run nothing.
  setHandler(
    enrollUpdate,
    (request) => {
      again = request;
      againByUpdate = true;
      return 'restarting' as const;
    },
    {
      validator: (_request) => {
        if (!stopping()) throw ApplicationFailure.create({ type: ALREADY_ACTIVE, message: 'the lead is already active in this journey', nonRetryable: true });
      },
    },
  );

  const ctx = (step: JourneyStep): StepContext => ({
    enrollmentId: state.enrollmentId,
    workspaceId: input.workspaceId,
    leadId: input.leadId,
    journeyId: input.journeyId,
    stepId: step.id,
    seq: state.seq + 1,
    ...(preview ? { preview: { now: clock.now(), ...(preview.lead ? { lead: preview.lead } : {}) } } : {}),
  });
  /**
   * Ends the enrollment; an enroll request that came once the end was decided starts the journey over (after a
   * cancellation from outside only an enroll update does, never a recorded signal: such runs replay as before).
   */
  const finish = async (end: Exclude<EnrollmentStatus, 'active'>, detail?: string, startOver = true): Promise<JourneyState> => {
    status = end;
    const stepId = steps[Math.min(state.pc, steps.length - 1)]?.id ?? null;
    await CancellationScope.nonCancellable(() => data.journeyFinished({ enrollmentId: state.enrollmentId, status: end, stepId, detail }));
    recorded = true;
    // An unenroll update answers once the row is final: let it finish before the run closes or continues as new.
    // Non-cancellable (like the steps lookup) because a run cancelled from outside also ends here.
    await CancellationScope.nonCancellable(() => condition(allHandlersFinished));
    if (again && (startOver || againByUpdate)) {
      const { version } = again;
      const lookup = () => data.journeySteps({ workspaceId: input.workspaceId, journeyId: input.journeyId, version });
      const next = await CancellationScope.nonCancellable(lookup).catch(() => undefined);
      if (next) return continueAsNew<typeof journeyEnrollment>({ ...input, version, steps: next, resume: undefined });
    }
    // Operators find runs by how they ended (Outcome = completed | unenrolled | failed). Deprecated patch.
    deprecatePatch('journey-outcome-search-attribute');
    upsertSearchAttributes([{ key: SA.Outcome, value: end }]);
    return snapshot();
  };
  const record = (step: JourneyStep, r: StepResult) => {
    state.seq += 1;
    if (r.outcome !== null) state.lastOutcome = r.outcome;
    const entry = { seq: state.seq, step_id: step.id, kind: step.kind, outcome: r.outcome ?? 'done', at: new Date(clock.now()).toISOString() };
    state.history = [...state.history, r.detail ? { ...entry, detail: r.detail } : entry].slice(-HISTORY_TAIL);
  };

  try {
    return await run();
  } catch (err) {
    // However the run fails (an activity's final failure rethrown, a bug in a step) or is cancelled, its enrollment
    // row ends first; an enroll update that came meanwhile starts over. Deprecated patch.
    if (!(err instanceof ContinueAsNew) && !recorded) {
      deprecatePatch('journey-final-row');
      if (isCancellation(err)) await finish('unenrolled', 'cancelled', false);
      else await finish('failed', `run failed: ${failureType(err) ?? (err as Error).message}`.slice(0, 500));
    }
    throw err;
  }

  async function run(): Promise<JourneyState> {
    const { workflowId, runId } = workflowInfo();
    try {
      if (input.resume) await data.journeyAtStep({ enrollmentId: state.enrollmentId, stepId: steps[state.pc]!.id, runId });
      else await data.journeyStarted({ ...ctx(steps[0]!), version: input.version, workflowId, runId });
    } catch (err) {
      if (failureType(err) === 'lead_not_found') return finish('failed', 'the lead no longer exists');
      throw err;
    }

    const maxSteps = input.maxStepsPerRun ?? DEFAULT_MAX_STEPS_PER_RUN;
    for (let ran = 0; ; ran++) {
      if (unenrolled) return finish('unenrolled', unenrolled);
      if (state.pc >= steps.length) return finish('completed');
      if (preview && state.seq >= PREVIEW_STEP_LIMIT) return finish('completed', 'preview step limit');
      if (ran >= maxSteps || workflowInfo().continueAsNewSuggested) {
        return continueAsNew<typeof journeyEnrollment>({ ...input, resume: state });
      }
      const step = steps[state.pc]!;
      let result: StepResult;
      try {
        current = new CancellationScope();
        result = await current.run(() => runStep(step, ctx(step), state.lastOutcome, clock));
      } catch (err) {
        if (isCancellation(err)) {
          if (unenrolled) return finish('unenrolled', unenrolled);
          await finish('unenrolled', 'cancelled', false);
          throw err;
        }
        if (err instanceof JourneyStepError) return finish('failed', `${step.id}: ${err.message}`);
        throw err;
      } finally {
        current = undefined;
      }
      record(step, result);
      if (result.end) return finish('completed');
      state.pc = result.next !== undefined ? indexOf.get(result.next)! : state.pc + 1;
    }
  }
}
