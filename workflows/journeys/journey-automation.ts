// The journey step `automation`: runs automationRun as a child with the lead and its last call as callData.
import { patched, proxyActivities, proxyLocalActivities, uuid4 } from '@temporalio/workflow';
import type { createAutomationActivities } from '../../activities/automation/automations';
import type { StepContext } from '../../activities/journeys/journeys';
import type { StepOf } from '../../src/journeys/schema';
import { runAutomationChild } from '../automation/automation-child';

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
  const outcome = await runAutomationChild({
    requestId,
    workspaceId: ctx.workspaceId,
    automationType: step.automationType,
    action: step.action,
    ...(step.version !== undefined ? { version: step.version } : {}),
    nodeId: step.id,
    params: step.params,
    callData,
    ids: { leadId: ctx.leadId, journeyId: ctx.journeyId },
  });
  return outcome.success ? { outcome: 'done', detail: `automation ${requestId}` } : { outcome: 'failed', detail: `${outcome.errorType}: ${outcome.error}` };
}
