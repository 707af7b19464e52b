import { temporal } from '@temporalio/proto';
import type { ChildProcess } from 'node:child_process';
import { connectNativeTemporal } from '../../src/temporal/client';
import { taskQueue } from '../../src/temporal/task-queues';
import { workerSetFromConfig } from '../../worker/workers';
import { testEnv } from '../helpers/env';
import { killWorkerProcesses, outputMatch, spawnOnApp } from '../helpers/worker-process';
import { startTestApp, testConfig, type TestApp } from '../helpers/stack';
import { createLogger } from '../../src/telemetry/log';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import path from 'node:path';

jest.setTimeout(120_000);

const WORKER = path.join('worker', 'main.ts');

describe('worker processes by task queue (WORKER_TASK_QUEUES)', () => {
  let app: TestApp;
  let fake: VendorFake;
  beforeAll(async () => {
    app = await startTestApp();
    fake = await startVendorFake();
  });
  afterAll(async () => {
    killWorkerProcesses();
    await app?.close();
    await fake?.stop();
  });

  const pollers = async (kind: Parameters<typeof taskQueue>[0]) =>
    (
      await app.temporal.connection.workflowService.describeTaskQueue({
        namespace: app.config.TEMPORAL_NAMESPACE,
        taskQueue: { name: taskQueue(kind, app.config.TEMPORAL_TASK_QUEUE_PREFIX) },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      })
    ).pollers ?? [];

  it('polls only its queues, says so on /readyz, and runs the work of those queues', async () => {
    const child: ChildProcess = spawnOnApp(app, WORKER, {
      WORKER_TASK_QUEUES: 'automations, chat',
      WORKER_HEALTH_PORT: '0',
      WORKER_METRICS_PORT: '0',
      LOG_LEVEL: 'info',
    });
    const health = await outputMatch(child, 'worker polling', (out) => out.match(/"health":"(http:[^"]+)"/)?.[1]);
    const ready = await fetch(`${health}/readyz`);
    const body = (await ready.json()) as { status: string; taskQueues: string[]; checks: Record<string, unknown> };
    const prefix = app.config.TEMPORAL_TASK_QUEUE_PREFIX;
    expect(ready.status).toBe(200);
    expect(body).toMatchObject({ status: 'success', taskQueues: [`${prefix}-automations`, `${prefix}-chat`], checks: { postgres: 'ok', temporal: 'ok' } });
    expect((await fetch(`${health}/healthz`)).status).toBe(200);

    expect((await pollers('automations')).length).toBeGreaterThan(0);
    expect(await pollers('journeys')).toEqual([]);
    expect(await pollers('calls')).toEqual([]);

    const ws = await app.newWorkspace({ superuser: true });
    fake.on('POST', '/q', { status: 200, body: {} });
    const res = await app.request('POST', '/api/automation/execute', {
      body: { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/q` } } },
      headers: { 'x-key': ws.superuserKey },
    });
    expect(res.body).toMatchObject({ success: true });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });

  it('refuses an unknown queue name at start-up, naming the setting', async () => {
    const child = spawnOnApp(app, WORKER, { WORKER_TASK_QUEUES: 'journeys,emails', WORKER_HEALTH_PORT: '0', WORKER_METRICS_PORT: '0' });
    let out = '';
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(out).toMatch(/WORKER_TASK_QUEUES: unknown task queue\(s\) emails; known: journeys, calls, automations, chat/);
  });

  it('gives each queue’s worker its own concurrency limits', async () => {
    const config = testConfig({
      WORKER_TASK_QUEUES: 'calls,automations',
      WORKER_CALLS_MAX_CONCURRENT_ACTIVITIES: '7',
      WORKER_CALLS_MAX_CONCURRENT_WORKFLOW_TASKS: '3',
      WORKER_AUTOMATIONS_MAX_CONCURRENT_LOCAL_ACTIVITIES: '50',
    });
    const connection = await connectNativeTemporal(config);
    const workers = await workerSetFromConfig(
      { ...config, WORKER_BUNDLE_PATH: testEnv('bundlePath'), WORKER_SHUTDOWN_GRACE_MS: 0 },
      { connection, db: app.db, logger: createLogger('silent', 'test') },
    );
    const running = Promise.all(workers.map((w) => w.run()));
    try {
      const byQueue = Object.fromEntries(workers.map((w) => [w.options.taskQueue.split('-').pop(), w.options]));
      expect(Object.keys(byQueue)).toEqual(['calls', 'automations']);
      // The SDK compiles the limits into fixed-size slot suppliers.
      const slots = (q: string, supplier: string) => (byQueue[q] as unknown as { tuner: Record<string, { numSlots: number }> }).tuner[supplier]!.numSlots;
      expect([slots('calls', 'activityTaskSlotSupplier'), slots('calls', 'workflowTaskSlotSupplier'), slots('calls', 'localActivityTaskSlotSupplier')]).toEqual(
        [7, 3, 100],
      );
      expect([slots('automations', 'localActivityTaskSlotSupplier'), slots('automations', 'activityTaskSlotSupplier')]).toEqual([50, 100]);
    } finally {
      for (const w of workers) w.shutdown();
      await running;
      await connection.close();
    }
  });
});
