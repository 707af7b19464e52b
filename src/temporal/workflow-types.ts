// The workflows the api starts, each by its type name on the wire (the worker registers every export of workflows/
// under its name) with its function's type, so that a start's options and arguments are type-checked while the api
// loads no workflow code (the import below is erased).
import { WithStartWorkflowOperation, type Client, type WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type * as workflows from '../../workflows';

/** A workflow's type name, carrying the workflow function's type. */
export interface WorkflowRef<W extends Workflow> {
  readonly type: string;
  /** Never set: only its type is used. */
  readonly fn?: W;
}

const ref = <K extends keyof typeof workflows>(type: K): WorkflowRef<(typeof workflows)[K]> => ({ type });

/** Every workflow type the api starts. */
export const WORKFLOW = {
  journeyEnrollment: ref('journeyEnrollment'),
  outboundCall: ref('outboundCall'),
  automationRun: ref('automationRun'),
  chatSession: ref('chatSession'),
  campaignRun: ref('campaignRun'),
  leadImport: ref('leadImport'),
} as const;

/** Starts a run of the workflow, its options and arguments checked against the workflow function. */
export function startWorkflow<W extends Workflow>(client: Client, workflow: WorkflowRef<W>, options: WorkflowStartOptions<W>) {
  return client.workflow.start<W>(workflow.type, options);
}

/** Starts a run of the workflow and waits for its result (options and arguments checked as startWorkflow's are). */
export function executeWorkflow<W extends Workflow>(client: Client, workflow: WorkflowRef<W>, options: WorkflowStartOptions<W>) {
  return client.workflow.execute<W>(workflow.type, options);
}

/** The start operation of an update-with-start, checked as startWorkflow's options are. */
export function startOperation<W extends Workflow>(
  workflow: WorkflowRef<W>,
  options: WorkflowStartOptions<W> & { workflowIdConflictPolicy: 'USE_EXISTING' | 'FAIL' },
) {
  return new WithStartWorkflowOperation<W>(workflow.type, options);
}
