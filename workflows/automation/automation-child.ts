// The automationRun child that a chat flow's `automation` node runs (a journey's `automation` step runs the same input
// inline): one action in the workspace's name (superuser mode: the workspace's connection), with the caller's callData.
import { executeChild } from '@temporalio/workflow';
import { AUTOMATION_RUN_ATTEMPTS, type AutomationRunInput } from '../../src/automation/types';
import { automationWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes } from '../../src/temporal/search-attribute-keys';
import { childAttributesOf } from '../run-attributes';
import { automationRun } from './automation-run';

/** What one automation child runs: the action, its params and the callData its custom fields resolve from. */
export interface AutomationChild {
  requestId: string;
  workspaceId: string;
  automationType: string;
  action: string;
  /** The version the step or node was pinned to at import; absent (stored before versions): the latest. */
  version?: number;
  nodeId: string;
  params: Record<string, unknown>;
  callData: Record<string, unknown>;
  /** The ids of the starter, for the run's search attributes: the chat's flow and lead, or the journey's lead and journey. */
  ids: { leadId?: string; journeyId?: string; flowId?: string };
}

/** The run input of what a journey step or chat node runs: the action in the workspace's name (superuser mode). */
export function automationChildInput(c: AutomationChild): AutomationRunInput {
  return {
    requestId: c.requestId,
    workspaceId: c.workspaceId,
    userId: null,
    superuser: true,
    automationType: c.automationType,
    action: c.action,
    ...(c.version !== undefined ? { version: c.version } : {}),
    nodeId: c.nodeId,
    params: c.params,
    call: { callData: c.callData },
    maxRunAttempts: AUTOMATION_RUN_ATTEMPTS,
    receivedAt: Date.now(),
  };
}

/** Runs automationRun as a child workflow (id `automation:<requestId>`) and resolves with its outcome. */
export function runAutomationChild(c: AutomationChild): ReturnType<typeof automationRun> {
  return executeChild(automationRun, {
    workflowId: automationWorkflowId(c.requestId),
    args: [automationChildInput(c)],
    ...childAttributesOf(() => runSearchAttributes.automationRun({ workspaceId: c.workspaceId, automationType: c.automationType, ...c.ids })),
  });
}
