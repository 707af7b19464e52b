// A chat flow's `automation` node: runs automationRun as a child with the conversation's
// context as callData, as the journey step does.
import { deprecatePatch, proxyActivities, uuid4 } from '@temporalio/workflow';
import type { createAutomationActivities } from '../../activities/automation/automations';
import type { ChatActivities } from '../../activities/chat/chat';
import type { AutomationResult } from '../../src/chat/engine';
import type { FlowNode } from '../../src/chat/flow-types';
import { runAutomationChild } from '../automation/automation-child';
import type { ChatInput } from './chat-messages';

const options = {
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
} as const;
const data = proxyActivities<ReturnType<typeof createAutomationActivities>>(options);
const chat = proxyActivities<ChatActivities>(options);

/**
 * The lead's callData, for a chat bound to a lead: only while its session is still bound to it (runs started before
 * migration 020 unbound the sessions of unverified chats still name their lead). Deprecated patch chat-lead-bound.
 */
async function leadCallData(input: ChatInput): Promise<Record<string, unknown> | undefined> {
  if (!input.leadId) return undefined;
  deprecatePatch('chat-lead-bound');
  if (!(await chat.chatLeadBound({ sessionId: input.sessionId, leadId: input.leadId }))) return undefined;
  return data.journeyAutomationCallData({ workspaceId: input.workspaceId, leadId: input.leadId });
}

/**
 * Runs the node's action in the workspace's name. callData: the lead (when the chat has one) as on the journey step,
 * `fields` the lead's fields overlaid with the answers captured in this conversation (custom fields resolve from it,
 * as on the automation endpoint), and `chat` the session, flow and answers. Never throws: a failure is a result.
 */
export async function runChatAutomation(
  input: ChatInput,
  node: Extract<FlowNode, { type: 'automation' }>,
  captured: Record<string, string>,
): Promise<AutomationResult> {
  const requestId = uuid4();
  try {
    const lead = await leadCallData(input).catch(() => undefined);
    const leadFields = (lead?.fields ?? {}) as Record<string, unknown>;
    const callData = { ...(lead ?? {}), fields: { ...leadFields, ...captured }, chat: { sessionId: input.sessionId, flowId: input.flowId, captured } };
    const outcome = await runAutomationChild({
      requestId,
      workspaceId: input.workspaceId,
      automationType: node.integration,
      action: node.action,
      ...(node.version !== undefined ? { version: node.version } : {}),
      nodeId: node.id,
      params: node.params ?? {},
      callData,
      ids: { flowId: input.flowId, ...(lead ? { leadId: input.leadId } : {}) },
    });
    return {
      node: node.id,
      requestId,
      success: outcome.success,
      detail: outcome.success ? `automation ${requestId}` : `${outcome.errorType}: ${outcome.error}`,
    };
  } catch (err) {
    return { node: node.id, requestId, success: false, detail: `run_failed: ${(err as Error).message}` };
  }
}
