// The journey step `automation`: runs the action with the lead and its last call as callData, inline in the
// enrollment's run (deprecated patch journey-automation-inline: runs from before it ran an automationRun child).
import { deprecatePatch, proxyLocalActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { createAutomationActivities } from '../../activities/automation/automations';
import type { StepContext } from '../../activities/journeys/journeys';
import type { StepOf } from '../../src/journeys/schema';
import { automationChildInput, type AutomationChild } from '../automation/automation-child';
import { performAutomation } from '../automation/automation-run';

// A local activity, like the journey's other database reads (journey-steps.ts).
const localData = proxyLocalActivities<ReturnType<typeof createAutomationActivities>>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Runs the step's action in the workspace's name (superuser mode: the workspace's connection). Outcome `done` when it
 * succeeded, `failed` (with its error type) when not, so a branch can follow either.
 */
export async function runAutomationStep(step: StepOf<'automation'>, ctx: StepContext): Promise<{ outcome: string; detail: string }> {
  deprecatePatch('journey-local-data');
  const callData = await localData.journeyAutomationCallData({
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
  // its own, which cost 17 history events and 3 workflow tasks per step (P3, docs/decisions/inline-automation-step.md).
  deprecatePatch('journey-automation-inline');
  const outcome = await performAutomation({ ...automationChildInput(run), workflowId: workflowInfo().workflowId });
  return outcome.success ? { outcome: 'done', detail: `automation ${requestId}` } : { outcome: 'failed', detail: `${outcome.errorType}: ${outcome.error}` };
}
