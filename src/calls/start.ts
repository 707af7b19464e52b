import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { startWorkflow, WORKFLOW } from '../temporal/workflow-types';
import { callWorkflowId } from '../temporal/ids';
import { runSearchAttributes } from '../temporal/search-attributes';
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
      typedSearchAttributes: runSearchAttributes.outboundCall({
        workspaceId: input.workspaceId,
        callId: input.callId,
        agentId: input.agentId,
        leadId: input.leadId,
      }),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}
