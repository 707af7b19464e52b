import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import { startOperation, startWorkflow, type WorkflowRef } from './workflow-types';
import type { UpdateDefinition, Workflow } from '@temporalio/common';

/**
 * Starts a run, or tells the run already open under the workflow id an update; both through the SDK's typed calls, so
 * interceptors, codecs and the data converter see every start. The plain start comes first (one call, no worker in the
 * way: the common case of a new run); only when a run is open is the update sent, with update-with-start
 * (USE_EXISTING), so a run that closed in between is started anew in the same call rather than missed.
 * Resolves `started` when the plain start created the run, else the update's result; a rejected update throws.
 */
export async function startOrUpdate<W extends Workflow, Ret, Args extends unknown[]>(
  client: Client,
  workflow: WorkflowRef<W>,
  options: WorkflowStartOptions<W>,
  update: UpdateDefinition<Ret, Args>,
  updateArgs: Args,
): Promise<{ started: true } | { started: false; result: Ret }> {
  try {
    await startWorkflow(client, workflow, { ...options, workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'ALLOW_DUPLICATE' });
    return { started: true };
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  const joinOptions = { ...options, workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'ALLOW_DUPLICATE' } as const;
  const startWorkflowOperation = startOperation(workflow, joinOptions);
  const result = await client.workflow.executeUpdateWithStart(update, { args: updateArgs, startWorkflowOperation });
  return { started: false, result };
}
