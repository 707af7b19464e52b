import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type SearchAttributePair } from '@temporalio/common';
import { encodeUnifiedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { temporal } from '@temporalio/proto';
import { randomUUID } from 'node:crypto';

const { TaskQueueKind, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } = temporal.api.enums.v1;

/**
 * Starts a workflow, or joins the run already open under its id (conflict policy USE_EXISTING; a closed run's id may
 * be reused). Unlike client.workflow.start it says which happened (`started`), so a caller can tell a joined run
 * something (e.g. signal it) only when it did not start it. One StartWorkflowExecution call, default data converter.
 */
export async function startOrJoin(
  client: Client,
  o: { workflowType: string; workflowId: string; taskQueue: string; args: unknown[]; searchAttributes: SearchAttributePair[] },
): Promise<{ runId: string; started: boolean }> {
  const res = await client.workflowService.startWorkflowExecution({
    namespace: client.options.namespace,
    identity: client.options.identity,
    requestId: randomUUID(),
    workflowId: o.workflowId,
    workflowType: { name: o.workflowType },
    taskQueue: { name: o.taskQueue, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    input: { payloads: o.args.map((a) => defaultPayloadConverter.toPayload(a)) },
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
    searchAttributes: { indexedFields: encodeUnifiedSearchAttributes(undefined, o.searchAttributes) },
  });
  return { runId: res.runId, started: res.started ?? false };
}
