import { randomUUID } from 'node:crypto';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { DomainError } from '../core/errors';
import type { Logger } from '../telemetry/log';
import { journeyPreviewWorkflowId } from '../temporal/ids';
import { SA } from '../temporal/search-attributes';
import { previewTaskQueue } from '../temporal/task-queues';
import { executeWorkflow, WORKFLOW } from '../temporal/workflow-types';
import { PREVIEW_STEP_LIMIT, type JourneyState, type PreviewLead, type StepRecord } from '../../workflows/journeys/journey-messages';
import type { JourneyTarget } from './enroll';
import type { JourneyStep } from './schema';

/** One step a preview run took: which, when (virtual time), what it would do, and why. */
export interface PreviewStep {
  step: string;
  kind: JourneyStep['kind'];
  at: string;
  action: string;
  outcome: string;
  detail: string | null;
}

/** What it would do, by step kind (a call step the do-not-call list stops is a skip). */
const ACTIONS: Record<JourneyStep['kind'], string> = {
  wait: 'wait',
  tag: 'add_tag',
  untag: 'remove_tag',
  update_lead: 'update_lead',
  webhook: 'send_webhook',
  branch: 'branch',
  goto: 'goto',
  end: 'end',
  call: 'call',
  automation: 'run_automation',
  trigger: 'send_trigger',
};

/** The detail of steps whose run records none: what the step would have written (and did not). */
function writtenDetail(step: JourneyStep | undefined): string | null {
  if (step?.kind === 'tag') return `not written: would add tag ${step.tag}`;
  if (step?.kind === 'untag') return `not written: would remove tag ${step.tag}`;
  if (step?.kind === 'update_lead') return `not written: would set ${Object.keys(step.fields).join(', ')}`;
  return null;
}

function present(r: StepRecord, step: JourneyStep | undefined): PreviewStep {
  const skipped = r.kind === 'call' && r.outcome === 'skipped';
  const detail = skipped && r.detail === 'dnc' ? 'dnc: the phone is on the do-not-call list, no call' : (r.detail ?? writtenDetail(step));
  return { step: r.step_id, kind: r.kind, at: r.at, action: skipped ? 'skip' : ACTIONS[r.kind], outcome: r.outcome, detail };
}

/** Who a preview is for: a lead on file (its id), or a record (no lead row; the id is only a placeholder). */
export type PreviewSubject = { leadId: string } | { lead: PreviewLead };

/** How long a preview may run (its activities only read): past this the api answers 503. */
const PREVIEW_TIMEOUT = '30 seconds';

/**
 * Runs the journey's workflow for one lead on the preview task queue (recorder activities, a virtual clock from `at`)
 * and answers the steps it took. Nothing is written, called or sent; the run's id carries no personal data.
 */
export async function previewJourney(
  deps: { client: Client; taskQueuePrefix: string; log: Logger },
  workspaceId: string,
  target: JourneyTarget,
  subject: PreviewSubject,
  at: number,
) {
  const leadId = 'leadId' in subject ? subject.leadId : randomUUID();
  const workflowId = journeyPreviewWorkflowId(randomUUID());
  let state: JourneyState;
  try {
    state = await executeWorkflow(deps.client, WORKFLOW.journeyEnrollment, {
      workflowId,
      taskQueue: previewTaskQueue(deps.taskQueuePrefix),
      workflowRunTimeout: PREVIEW_TIMEOUT,
      args: [
        {
          workspaceId,
          journeyId: target.journeyId,
          leadId,
          version: target.version,
          steps: target.steps,
          preview: { at, ...('lead' in subject ? { lead: subject.lead } : {}) },
        },
      ],
      typedSearchAttributes: [
        { key: SA.WorkspaceId, value: workspaceId },
        { key: SA.JourneyId, value: target.journeyId },
      ],
    });
  } catch (err) {
    deps.log.error(
      { err: (err as Error).message, workflowId, cause: err instanceof WorkflowFailedError ? err.cause?.message : undefined },
      'journey preview failed',
    );
    throw new DomainError('workflow_unavailable', 'Could not run the preview, please retry');
  }
  const byId = new Map(target.steps.map((s) => [s.id, s]));
  const steps = state.history.map((r) => present(r, byId.get(r.step_id)));
  return {
    status: 'success' as const,
    workflow_id: workflowId,
    journey_id: target.journeyId,
    version: target.version,
    lead_id: 'leadId' in subject ? subject.leadId : null,
    started_at: new Date(at).toISOString(),
    ended_at: steps.at(-1)?.at ?? new Date(at).toISOString(),
    result: state.status === 'failed' ? ('failed' as const) : ('completed' as const),
    step_limit_reached: steps.length >= PREVIEW_STEP_LIMIT,
    steps,
  };
}
