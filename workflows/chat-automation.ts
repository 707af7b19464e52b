// A chat flow's `automation` node (patch `chat-automation`): runs automationRun as a child with the conversation's
// context as callData, as the journey step does.
import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { createAutomationActivities } from '../activities/automations';
import type { AutomationResult } from '../src/chat/engine';
import type { FlowNode } from '../src/chat/flow-schema';
import { runAutomationChild } from './automation-child';
import type { ChatInput } from './chat-messages';

const data = proxyActivities<ReturnType<typeof createAutomationActivities>>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * Runs the node's action in the workspace's name. callData: the lead (when the chat has one) as on the journey step,
 * `fields` the lead's fields overlaid with the answers captured in this conversation (custom fields resolve from it,
 * as on the automation endpoint), and `chat` the session, flow and answers. Never throws: a failure is a result.
 */
export async function runChatAutomation(input: ChatInput, node: Extract<FlowNode, { type: 'automation' }>, captured: Record<string, string>): Promise<AutomationResult> {
  const requestId = uuid4();
  try {
    const lead = input.leadId ? await data.journeyAutomationCallData({ workspaceId: input.workspaceId, leadId: input.leadId }).catch(() => undefined) : undefined;
    const leadFields = (lead?.fields ?? {}) as Record<string, unknown>;
    const callData = { ...(lead ?? {}), fields: { ...leadFields, ...captured }, chat: { sessionId: input.sessionId, flowId: input.flowId, captured } };
    const outcome = await runAutomationChild({
      requestId,
      workspaceId: input.workspaceId,
      automationType: node.integration,
      action: node.action,
      nodeId: node.id,
      params: node.params ?? {},
      callData,
    });
    return { node: node.id, requestId, success: outcome.success, detail: outcome.success ? `automation ${requestId}` : `${outcome.errorType}: ${outcome.error}` };
  } catch (err) {
    return { node: node.id, requestId, success: false, detail: `run_failed: ${(err as Error).message}` };
  }
}
