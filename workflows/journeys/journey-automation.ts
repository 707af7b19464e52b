// The journey step `automation`: runs the action with the lead and its last call as callData, inline in the enrollment's
// run (patch journey-automation-inline; runs recorded before it ran an automationRun child and replay that way).
import { patched, proxyActivities, proxyLocalActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { createAutomationActivities } from '../../activities/automation/automations';
import type { StepContext } from '../../activities/journeys/journeys';
import type { StepOf } from '../../src/journeys/schema';
import { automationChildInput, runAutomationChild, type AutomationChild } from '../automation/automation-child';
import { performAutomation } from '../automation/automation-run';

const dataOptions = {
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const remoteData = proxyActivities<ReturnType<typeof createAutomationActivities>>(dataOptions);
// Local in runs with the journey-local-data patch, like the journey's other database reads (journey-steps.ts).
const localData = proxyLocalActivities<ReturnType<typeof createAutomationActivities>>(dataOptions);

/**
 * Runs the step's action in the workspace's name (superuser mode: the workspace's connection). Outcome `done` when it
 * succeeded, `failed` (with its error type) when not, so a branch can follow either.
 */
export async function runAutomationStep(step: StepOf<'automation'>, ctx: StepContext): Promise<{ outcome: string; detail: string }> {
  const callData = await (patched('journey-local-data') ? localData : remoteData).journeyAutomationCallData({
    workspaceId: ctx.workspaceId,
    leadId: ctx.leadId,
  });
  const requestId = uuid4();
  const run: AutomationChild = {
    requestId,
    workspaceId: ctx.workspaceId,
    automationType: step.automationType,
    action: step.action,
    ...(step.version !== undefined ? { version: step.version } : {}),
    nodeId: step.id,
    params: step.params,
    callData,
    ids: { leadId: ctx.leadId, journeyId: ctx.journeyId },
  };
  // Inline: a local activity of this run (which carries the lead's and the journey's ids) instead of a child run of
  // its own, which cost 17 history events and 3 workflow tasks per step (P3 in the README).
  const outcome = patched('journey-automation-inline')
    ? await performAutomation({ ...automationChildInput(run), workflowId: workflowInfo().workflowId })
    : await runAutomationChild(run);
  return outcome.success ? { outcome: 'done', detail: `automation ${requestId}` } : { outcome: 'failed', detail: `${outcome.errorType}: ${outcome.error}` };
}
