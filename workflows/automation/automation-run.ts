// automationRun: one action of one integration, durable and findable (id `automation:<requestId>`).
import { ApplicationFailure, deprecatePatch, proxyActivities, proxyLocalActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { createAutomationActivities } from '../../activities/automation/automations';
import { AUTOMATION_RUN_ATTEMPTS, type AutomationOutcome, type AutomationRunInput } from '../../src/automation/types';
import { SA } from '../../src/temporal/search-attribute-keys';

type AutomationActivities = ReturnType<typeof createAutomationActivities>;

// A local activity: no activity task round trip through the server (the run is one short vendor call).
const local = proxyLocalActivities<AutomationActivities>({
  startToCloseTimeout: '120s',
  retry: { maximumAttempts: AUTOMATION_RUN_ATTEMPTS, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

const callbacks = proxyActivities<AutomationActivities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 10, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});

/**
 * Runs the action as a local activity that records its outcome; a run never fails: a failed action (or an activity
 * that failed for good) is an outcome with success false. The body of automationRun, and of a journey's automation
 * step, which runs it inline in the enrollment's own run (journey-automation.ts).
 */
export async function performAutomation(run: AutomationRunInput): Promise<AutomationOutcome> {
  try {
    return await local.executeAutomation(run);
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    const failure = cause instanceof ApplicationFailure ? cause : undefined;
    const outcome: AutomationOutcome = {
      success: false,
      data: null,
      error: failure?.message ?? 'the run failed',
      errorType: failure?.type ?? 'run_failed',
      attempts: 0,
      runAttempts: AUTOMATION_RUN_ATTEMPTS,
    };
    await local.recordAutomationFailure({ ...run, outcome });
    return outcome;
  }
}

/**
 * Runs the action (performAutomation), marks the run's Outcome search attribute, and in async mode delivers the
 * envelope to the callback.
 */
export async function automationRun(input: AutomationRunInput): Promise<AutomationOutcome> {
  // The first workflow task's history is its started, scheduled and started events: a longer one means an earlier task
  // failed or timed out (its worker died), maybe mid-run. Told so, a first try can skip recording itself as running.
  // Deprecated patch automation-first-task (docs/workflow-versioning.md).
  deprecatePatch('automation-first-task');
  const run = { ...input, firstTask: workflowInfo().historyLength <= 3 };
  const outcome = await performAutomation(run);
  upsertSearchAttributes([{ key: SA.Outcome, value: outcome.success ? 'succeeded' : 'failed' }]);
  if (input.callbackUrl) {
    try {
      await callbacks.deliverAutomationCallback({ input, outcome });
    } catch {
      // The callback gave up (refused or unreachable after every retry); the run's outcome stands, recorded in the database.
    }
  }
  return outcome;
}
