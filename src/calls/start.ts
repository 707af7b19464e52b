import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { startWorkflow, WORKFLOW } from '../temporal/workflow-types';
import { callWorkflowId } from '../temporal/ids';
import { SA } from '../temporal/search-attribute-keys';
import { taskQueue } from '../temporal/task-queues';
import type { OutboundCallInput } from '../../workflows/calls/outbound-call-types';

/**
 * Starts the call's workflow (id `call:<callId>`) on the calls queue; a start for a call already started is a no-op.
 * Resolves the workflow id.
 */
export async function startOutboundCall(client: Client, taskQueuePrefix: string, input: OutboundCallInput): Promise<string> {
  const workflowId = callWorkflowId(input.callId);
  try {
    await startWorkflow(client, WORKFLOW.outboundCall, {
      workflowId,
      taskQueue: taskQueue('calls', taskQueuePrefix),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: SA.WorkspaceId, value: input.workspaceId },
        { key: SA.CallId, value: input.callId },
        { key: SA.AgentId, value: input.agentId },
        ...(input.leadId ? [{ key: SA.LeadId, value: input.leadId }] : []),
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}
