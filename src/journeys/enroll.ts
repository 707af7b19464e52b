import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Queryable } from '../db/pool';
import type { Logger } from '../log';
import { journeyVersionSteps, latestJourneyVersion } from '../db/repos/journeys';
import { ApiError, notFound, unavailable } from '../errors';
import { enrollmentWorkflowId } from '../temporal/ids';
import { startOrJoin } from '../temporal/start';
import { SA } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';
import { enrollSignal, type JourneyInput } from '../../workflows/journey-messages';
import type * as workflows from '../../workflows';
import { JourneyDefinitionError, parseJourneySteps, type JourneyStep } from './schema';
import { isUuid } from '../ids';

export const WORKFLOW_NOT_FOUND = 'Workflow not found';

/** A journey version ready to run. */
export interface JourneyTarget {
  journeyId: string;
  version: number;
  steps: JourneyStep[];
}

// Versions never change once stored, so their parsed steps are kept (the latest version number is read every time).
const parsed = new Map<string, JourneyStep[]>();

/** The journey's newest version, or a 404 `Workflow not found` (also for another workspace's journey). */
export async function latestJourney(db: Queryable, workspaceId: string, journeyId: string): Promise<JourneyTarget> {
  const version = isUuid(journeyId) ? await latestJourneyVersion(db, workspaceId, journeyId) : undefined;
  if (version === undefined) throw notFound(WORKFLOW_NOT_FOUND);
  const key = `${journeyId}:${version}`;
  let steps = parsed.get(key);
  if (!steps) {
    try {
      steps = parseJourneySteps(await journeyVersionSteps(db, workspaceId, journeyId, version));
    } catch (err) {
      if (!(err instanceof JourneyDefinitionError)) throw err;
      throw new ApiError(409, 'invalid_journey', `Workflow definition is invalid (version ${version}): ${err.issues.slice(0, 3).join('; ')}`);
    }
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(key, steps);
  }
  return { journeyId, version, steps };
}

/**
 * Starts the lead's run of the journey. The workflow id is the idempotency key: while a run is open the start joins
 * it (USE_EXISTING) instead of starting a second; once it closed, a new run may start. A joined run is sent an
 * `enroll` signal: an active run ignores it, a run that had already decided to end starts over (so an enrollment
 * racing the end of the previous run is never lost); a run that closed in between is started anew.
 */
export async function startEnrollment(
  { client, taskQueuePrefix, log }: { client: Client; taskQueuePrefix: string; log: Logger },
  workspaceId: string,
  leadId: string,
  target: JourneyTarget,
): Promise<{ runId: string }> {
  const input: JourneyInput = { workspaceId, journeyId: target.journeyId, leadId, version: target.version, steps: target.steps };
  const workflowId = enrollmentWorkflowId(target.journeyId, leadId);
  try {
    for (let attempt = 1; ; attempt++) {
      const run = await startOrJoin(client, {
        workflowType: 'journeyEnrollment' satisfies WorkflowName,
        workflowId,
        taskQueue: taskQueue('journeys', taskQueuePrefix),
        args: [input],
        searchAttributes: [
          { key: SA.WorkspaceId, value: workspaceId },
          { key: SA.LeadId, value: leadId },
          { key: SA.JourneyId, value: target.journeyId },
        ],
      });
      if (run.started) return run;
      try {
        await client.workflow.getHandle(workflowId, run.runId).signal(enrollSignal, { version: target.version });
        return run;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError) || attempt >= 3) throw err; // closed meanwhile: start a new run
      }
    }
  } catch (err) {
    // The lead is saved; a retry of the same request finds it and starts (or joins) the run.
    log.error({ err: (err as Error).message, journeyId: target.journeyId, leadId }, 'journey start failed');
    throw unavailable('Could not start the workflow, please retry');
  }
}

type WorkflowName = keyof Pick<typeof workflows, 'journeyEnrollment'>;
