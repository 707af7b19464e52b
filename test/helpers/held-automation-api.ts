// A child process for test/e2e/automation-early-answer.test.ts: the api with its automations worker in-process (runs
// start eagerly on it), whose run activity, once it has recorded the outcome, never reports its end: the process is
// killed holding it. Configured by the environment (as the api); prints "listening <url>" when ready.
import { Worker } from '@temporalio/worker';
import type { AddressInfo } from 'node:net';
import { createAutomationActivities } from '../../activities/automation/automations';
import { createApp } from '../../src/api/app';
import type { AutomationRunInput } from '../../src/automation/types';
import { loadConfig } from '../../src/core/config';
import { createDb } from '../../src/db/pool';
import { createLogger } from '../../src/telemetry/log';
import { connectNativeTemporal, connectTemporal, temporalClient, temporalDataConverter } from '../../src/temporal/client';
import { taskQueue } from '../../src/temporal/task-queues';
import { activityBoundary } from '../../worker/activity-errors';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('silent', 'held-api');
  const db = createDb(config.DATABASE_URL!, { max: 4, logger });
  const temporal = await connectTemporal(config);
  const native = await connectNativeTemporal(config);
  const activities = createAutomationActivities({ db, logger, config });
  const worker = await Worker.create({
    connection: native,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueue('automations', config.TEMPORAL_TASK_QUEUE_PREFIX),
    workflowBundle: { codePath: config.WORKER_BUNDLE_PATH! },
    activities: {
      ...activities,
      async executeAutomation(input: AutomationRunInput) {
        await activities.executeAutomation(input);
        process.stdout.write('held\n');
        return new Promise<never>(() => {});
      },
    },
    interceptors: { activity: [activityBoundary] },
    dataConverter: temporalDataConverter(config),
  });
  void worker.run();
  const eagerClient = temporalClient(native, config);
  const app = createApp({ config, db, temporal, logger, eagerClient });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
