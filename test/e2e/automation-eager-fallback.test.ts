import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createAutomationActivities } from '../../activities/automation/automations';
import { executeAutomation } from '../../src/automation/execute';
import { automationOutcomes } from '../../src/automation/outcome-hub';
import type { AutomationAuth, AutomationOutcome } from '../../src/automation/types';
import { connectNativeTemporal, temporalDataConverter } from '../../src/temporal/client';
import { taskQueue } from '../../src/temporal/task-queues';
import { createLogger } from '../../src/telemetry/log';
import { activityBoundary } from '../../worker/activity-errors';
import { testEnv } from '../helpers/env';
import { startTestApp, type TestApp } from '../helpers/stack';

// A synchronous automation run started eagerly on this process's worker normally answers from the outcome its activity
// hands over in-process, and asks Temporal for the run's result only after RESULT_POLL_AFTER_EAGER_MS. Here the
// in-process worker's run activity returns an outcome without handing it over (as when the run's task has moved to a
// worker of another process): the request must still answer, with the workflow's result.

jest.setTimeout(60_000);

let app: TestApp;
let native: NativeConnection;
let worker: Worker;
let running: Promise<void>;
const eager = { started: 0, eagerly: 0 };

/** What the stand-in activity answers: nothing in this process is told of it. */
const elsewhere: AutomationOutcome = { success: true, data: { from: 'the workflow result' }, error: null, errorType: null, attempts: 1, runAttempts: 1 };

beforeAll(async () => {
  app = await startTestApp(); // no workers: the one below is the only poller of the automations queue
  native = await connectNativeTemporal(app.config);
  const activities = createAutomationActivities({ db: app.db, logger: createLogger('silent', 'test'), config: app.config });
  worker = await Worker.create({
    connection: native,
    namespace: app.config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueue('automations', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
    workflowBundle: { codePath: testEnv('bundlePath') },
    activities: { ...activities, executeAutomation: async () => elsewhere },
    interceptors: { activity: [activityBoundary] },
    dataConverter: temporalDataConverter(app.config),
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running?.catch(() => undefined);
  await native?.close();
  await app?.close();
});

it('answers an eagerly started run with the workflow result when no outcome is handed over in-process', async () => {
  const ws = await app.newWorkspace({ superuser: true });
  const eagerClient = new Client({
    connection: native,
    namespace: app.config.TEMPORAL_NAMESPACE,
    dataConverter: temporalDataConverter(app.config),
    interceptors: {
      workflow: [
        {
          async startWithDetails(input, next) {
            const out = await next(input);
            eager.started++;
            if (out.eagerlyStarted) eager.eagerly++;
            return out;
          },
        },
      ],
    },
  });
  const deps = { db: app.db, client: app.temporal.client, eagerClient, taskQueuePrefix: app.config.TEMPORAL_TASK_QUEUE_PREFIX };
  const auth: AutomationAuth = { workspaceId: ws.workspaceId, superuser: true, userId: null, allowedIntegrations: null };
  const body = { automationType: 'proxy', nodeParams: { params: { apiMethod: 'GET', apiURL: 'http://127.0.0.1:9/never-called' } } };

  const envelope = await executeAutomation(deps, auth, body, Date.now());

  expect(eager).toEqual({ started: 1, eagerly: 1 }); // the deferred poll is what answered
  expect(envelope).toMatchObject({ success: true, data: { from: 'the workflow result' }, metadata: { workflowId: `automation:${envelope.requestId}` } });
  expect(automationOutcomes.size).toBe(0); // the request stopped waiting for a hand-over
});
