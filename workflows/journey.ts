// journeyEnrollment: one lead in one journey version, step after step, for as long as the journey lasts.
import { CancellationScope, continueAsNew, isCancellation, patched, setHandler, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type { StepContext } from '../activities/journeys';
import type { JourneyStep } from '../src/journeys/schema';
import { SA } from '../src/temporal/search-attribute-keys';
import { failureType, journeyData as data, JourneyStepError, runStep, type StepResult } from './journey-steps';
import {
  enrollSignal,
  HISTORY_TAIL,
  journeyStateQuery,
  unenrollSignal,
  type CarriedState,
  type EnrollmentStatus,
  type JourneyInput,
  type JourneyState,
} from './journey-messages';

const DEFAULT_MAX_STEPS_PER_RUN = 200;

/**
 * Interprets a journey version's steps for one lead (id `enrollment:<journeyId>:<leadId>`). Signal `unenroll`
 * stops it; query `journeyState` shows the current step and the steps done. Continues as new before its history
 * grows large, carrying the position, the last outcome and the tail of the step history.
 */
export async function journeyEnrollment(input: JourneyInput): Promise<JourneyState> {
  const { steps } = input;
  const state: CarriedState = input.resume ?? { enrollmentId: uuid4(), pc: 0, seq: 0, history: [] };
  const indexOf = new Map(steps.map((s, i) => [s.id, i]));
  let status: EnrollmentStatus = 'active';
  let unenrolled: string | undefined;
  let current: CancellationScope | undefined;
  let again: { version: number } | undefined;

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
  setHandler(unenrollSignal, (arg) => {
    if (status !== 'active' || unenrolled) return;
    unenrolled = arg?.reason || 'unenrolled';
    current?.cancel();
  });
  setHandler(enrollSignal, (request) => {
    if (status !== 'active' || unenrolled) again = request;
  });

  const ctx = (step: JourneyStep): StepContext => ({
    enrollmentId: state.enrollmentId,
    workspaceId: input.workspaceId,
    leadId: input.leadId,
    journeyId: input.journeyId,
    stepId: step.id,
    seq: state.seq + 1,
  });
  /** Ends the enrollment; an enroll request that came once the end was decided starts the journey over. */
  const finish = async (end: Exclude<EnrollmentStatus, 'active'>, detail?: string, startOver = true): Promise<JourneyState> => {
    status = end;
    const stepId = steps[Math.min(state.pc, steps.length - 1)]?.id ?? null;
    await CancellationScope.nonCancellable(() => data.journeyFinished({ enrollmentId: state.enrollmentId, status: end, stepId, detail }));
    if (again && startOver) {
      const { version } = again;
      const next = await data.journeySteps({ workspaceId: input.workspaceId, journeyId: input.journeyId, version }).catch(() => undefined);
      if (next) return continueAsNew<typeof journeyEnrollment>({ ...input, version, steps: next, resume: undefined });
    }
    // Operators find runs by how they ended (Outcome = completed | unenrolled | failed); runs recorded before this
    // existed replay without it.
    if (patched('journey-outcome-search-attribute')) upsertSearchAttributes([{ key: SA.Outcome, value: end }]);
    return snapshot();
  };
  const record = (step: JourneyStep, r: StepResult) => {
    state.seq += 1;
    if (r.outcome !== null) state.lastOutcome = r.outcome;
    const entry = { seq: state.seq, step_id: step.id, kind: step.kind, outcome: r.outcome ?? 'done', at: new Date().toISOString() };
    state.history = [...state.history, r.detail ? { ...entry, detail: r.detail } : entry].slice(-HISTORY_TAIL);
  };

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
    if (ran >= maxSteps || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof journeyEnrollment>({ ...input, resume: state });
    }
    const step = steps[state.pc]!;
    let result: StepResult;
    try {
      current = new CancellationScope();
      result = await current.run(() => runStep(step, ctx(step), state.lastOutcome));
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
