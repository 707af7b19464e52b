import { ApplicationFailure, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { Queryable } from '../db/pool';
import type { Logger } from '../telemetry/log';
import { journeyVersionSteps, latestJourneyVersion } from './db/journeys';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../core/errors';
import { enrollmentWorkflowId } from '../temporal/ids';
import { startOrUpdate } from '../temporal/start';
import { WORKFLOW } from '../temporal/workflow-types';
import { runSearchAttributes } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';
import { ALREADY_ACTIVE, enrollUpdate, type JourneyInput } from '../../workflows/journeys/journey-messages';
import { JourneyDefinitionError, parseJourneySteps, type JourneyStep } from './schema';
import { isUuid } from '../core/ids';
import { Coalescer } from '../core/coalesce';
import type { LatestJourneyVersions } from './latest-versions';

export const WORKFLOW_NOT_FOUND = 'Workflow not found';

/** A journey version ready to run. */
export interface JourneyTarget {
  journeyId: string;
  version: number;
  steps: JourneyStep[];
}

// Versions never change once stored, so their parsed steps are kept (the latest version number is read every time).
const parsed = new LRUCache<string, JourneyStep[]>({ max: 1000 });

/** The journey's newest version; journey_not_found `Workflow not found` also for another workspace's journey. */
export async function latestJourney(db: Queryable, workspaceId: string, journeyId: string, versions?: LatestJourneyVersions): Promise<JourneyTarget> {
  const lookup = () => (versions ? versions.get(db, workspaceId, journeyId) : latestJourneyVersion(db, workspaceId, journeyId));
  const version = isUuid(journeyId) ? await lookup() : undefined;
  if (version === undefined) throw new DomainError('journey_not_found', WORKFLOW_NOT_FOUND);
  const key = `${journeyId}:${version}`;
  let steps = parsed.get(key);
  if (!steps) {
    try {
      steps = parseJourneySteps(await journeyVersionSteps(db, workspaceId, journeyId, version));
    } catch (err) {
      if (!(err instanceof JourneyDefinitionError)) throw err;
      throw new DomainError('invalid_journey', `Workflow definition is invalid (version ${version}): ${err.issues.slice(0, 3).join('; ')}`);
    }
    parsed.set(key, steps);
  }
  return { journeyId, version, steps };
}

// Concurrent enrollments of one lead in one journey version share their calls to Temporal (a burst of duplicates
// otherwise queues one update per request on the same run, past the server's in-flight update limit).
const starts = new Coalescer<boolean>();

/** An enrollment's outcome: whether this request assigned the lead, and the run it is in either way. */
export interface Enrolled {
  assigned: boolean;
  workflowId: string;
}

/**
 * Starts the lead's run of the journey. The workflow id is the idempotency key: a new run starts when none is open;
 * when one is, it is sent the `enroll` update, which an active run rejects (the lead is already enrolled; a rejected
 * update leaves nothing in the run's history) and a run that has already decided to end accepts, starting over (so an
 * enrollment racing the end of the previous run is never lost); a run that closed in between is started anew.
 * `assigned` is false when the lead was already running the journey (nothing assigned), true otherwise.
 */
export async function startEnrollment(
  { client, taskQueuePrefix, log }: { client: Client; taskQueuePrefix: string; log: Logger },
  workspaceId: string,
  leadId: string,
  target: JourneyTarget,
): Promise<Enrolled> {
  const input: JourneyInput = { workspaceId, journeyId: target.journeyId, leadId, version: target.version, steps: target.steps };
  const workflowId = enrollmentWorkflowId(target.journeyId, leadId);
  const assigned = await starts.run(`${workflowId}:${target.version}`, () => start(client, taskQueuePrefix, log, input, workflowId));
  return { assigned, workflowId };
}

async function start(client: Client, taskQueuePrefix: string, log: Logger, input: JourneyInput, workflowId: string): Promise<boolean> {
  const { workspaceId, journeyId, leadId, version } = input;
  try {
    await startOrUpdate(
      client,
      WORKFLOW.journeyEnrollment,
      {
        workflowId,
        taskQueue: taskQueue('journeys', taskQueuePrefix),
        args: [input],
        typedSearchAttributes: runSearchAttributes.journeyEnrollment({ workspaceId, leadId, journeyId }),
      },
      enrollUpdate,
      [{ version }],
    );
    return true;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === ALREADY_ACTIVE) return false;
    // The lead is saved; a retry of the same request finds it and starts (or joins) the run.
    log.error({ err: (err as Error).message, journeyId, leadId }, 'journey start failed');
    throw new DomainError('workflow_unavailable', 'Could not start the workflow, please retry');
  }
}
