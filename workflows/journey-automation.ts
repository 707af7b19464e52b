// The journey step `automation`: runs automationRun as a child with the lead and its last call as callData.
import { executeChild, proxyActivities, uuid4 } from '@temporalio/workflow';
import type { createAutomationActivities } from '../activities/automations';
import type { StepContext } from '../activities/journeys';
import { AUTOMATION_RUN_ATTEMPTS } from '../src/automation/types';
import type { StepOf } from '../src/journeys/schema';
import { automationWorkflowId } from '../src/temporal/ids';
import { SA } from '../src/temporal/search-attribute-keys';
import type { automationRun } from './automation-run';

const data = proxyActivities<ReturnType<typeof createAutomationActivities>>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Runs the step's action in the workspace's name (superuser mode: the workspace's connection). Outcome `done` when it
 * succeeded, `failed` (with its error type) when not, so a branch can follow either.
 */
export async function runAutomationStep(step: StepOf<'automation'>, ctx: StepContext): Promise<{ outcome: string; detail: string }> {
  const callData = await data.journeyAutomationCallData({ workspaceId: ctx.workspaceId, leadId: ctx.leadId });
  const requestId = uuid4();
  const outcome = await executeChild<typeof automationRun>('automationRun', {
    workflowId: automationWorkflowId(requestId),
    args: [
      {
        requestId,
        workspaceId: ctx.workspaceId,
        userId: null,
        superuser: true,
        automationType: step.automationType,
        action: step.action,
        nodeId: step.id,
        params: step.params,
        call: { callData },
        maxRunAttempts: AUTOMATION_RUN_ATTEMPTS,
        receivedAt: Date.now(),
      },
    ],
    typedSearchAttributes: [
      { key: SA.WorkspaceId, value: ctx.workspaceId },
      { key: SA.AutomationType, value: step.automationType },
    ],
  });
  return outcome.success ? { outcome: 'done', detail: `automation ${requestId}` } : { outcome: 'failed', detail: `${outcome.errorType}: ${outcome.error}` };
}
