import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { createActivities, type Activities } from '../../activities';
import { createDb, type Db } from '../../src/db/pool';
import { findOrCreateLead } from '../../src/leads/db/leads';
import { importJourney } from '../../src/journeys/db/journeys';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { createLogger } from '../../src/telemetry/log';
import { activityBoundary } from '../../worker/activity-errors';
import { enrollmentWorkflowId } from '../../src/temporal/ids';
import { SA } from '../../src/temporal/search-attribute-keys';
import { taskQueue } from '../../src/temporal/task-queues';
import type { journeyEnrollment } from '../../workflows/journeys/journey';
import type { JourneyInput } from '../../workflows/journeys/journey-messages';
import { parseJourneySteps } from '../../src/journeys/schema';
import { msUntilWindow } from '../../src/schedule/window';
import { testEnv } from './env';
import { testConfig } from './stack';
import { newPhone } from './journeys';
import { normalizePhone } from '../../src/core/phone';

/** A worker with the real journey activities on real Postgres, polling a time-skipping test server. */
export interface TimeStack {
  db: Db;
  worker: Worker;
  taskQueue: string;
  /** A new workspace with one lead and the journey; starts the lead's run as the api would and returns its handle. */
  enroll(steps: unknown[], opts?: { timezone?: string; leadTimezone?: string; maxStepsPerRun?: number }): Promise<Enrolled>;
  close(): Promise<void>;
}

export interface Enrolled {
  workspaceId: string;
  journeyId: string;
  leadId: string;
  workflowId: string;
  firstRunId: string;
}

/**
 * The window activity measures from the machine's clock (Date.now), which the test server's skipped clock does not
 * move. So its answer is measured again from the server's time: the lead lookup and the choice of time zone are the
 * activity's, the window maths is the same function it uses.
 */
function onServerClock(env: TestWorkflowEnvironment, activities: Activities): Activities {
  return {
    ...activities,
    async journeyWindowDelay(c) {
      const { timeZone } = await activities.journeyWindowDelay(c);
      return { ms: msUntilWindow(await env.currentTimeMs(), c.until, timeZone), timeZone };
    },
  };
}

/**
 * Starts the worker on the environment's native connection; its task queue is unique to this stack. opts.config:
 * settings the activities read (e.g. SSRF_ALLOWLIST for a local webhook receiver); without it, the secure defaults.
 */
export async function startTimeStack(env: TestWorkflowEnvironment, opts: { config?: Record<string, string> } = {}): Promise<TimeStack> {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'time-test');
  const db = createDb(testEnv('databaseUrl'), { max: 5, logger });
  const queue = taskQueue('journeys', `ts${randomBytes(4).toString('hex')}`);
  const config = opts.config ? testConfig(opts.config) : undefined;
  const activities = onServerClock(env, createActivities({ db, logger, config }));
  const worker = await Worker.create({
    connection: env.nativeConnection,
    dataConverter: env.client.options.dataConverter,
    taskQueue: queue,
    workflowBundle: { codePath: testEnv('bundlePath') },
    activities,
    interceptors: { activity: [activityBoundary] },
  });
  const running = worker.run();
  return {
    db,
    worker,
    taskQueue: queue,
    async enroll(steps, opts = {}) {
      const ws = await createWorkspace(db, { name: `time ${randomBytes(3).toString('hex')}`, timezone: opts.timezone });
      const { lead } = await findOrCreateLead(db, ws.id, normalizePhone(newPhone(), 'US')!, { timezone: opts.leadTimezone ?? null });
      const journey = await importJourney(db, ws.id, { name: 'time journey', steps });
      const input: JourneyInput = {
        workspaceId: ws.id,
        journeyId: journey.id,
        leadId: lead.id,
        version: journey.version,
        steps: parseJourneySteps(steps),
        maxStepsPerRun: opts.maxStepsPerRun,
      };
      const workflowId = enrollmentWorkflowId(journey.id, lead.id);
      const handle = await env.client.workflow.start<typeof journeyEnrollment>('journeyEnrollment', {
        taskQueue: queue,
        workflowId,
        args: [input],
        typedSearchAttributes: [
          { key: SA.WorkspaceId, value: ws.id },
          { key: SA.LeadId, value: lead.id },
          { key: SA.JourneyId, value: journey.id },
        ],
      });
      return { workspaceId: ws.id, journeyId: journey.id, leadId: lead.id, workflowId, firstRunId: handle.firstExecutionRunId };
    },
    async close() {
      worker.shutdown();
      await running;
      await db.close();
    },
  };
}
