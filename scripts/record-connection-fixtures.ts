// Records the connection workflows' replay fixtures: runs each path on the test stack and saves its history as
// test/fixtures/connection-history-<path>[-<tag>].json. It never replaces a file: old histories must keep replaying.
//
//   node bin/run-ts.js scripts/record-connection-fixtures.ts [--tag v2] [--only event-delivered,refresh]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { publishConnectionBroken } from '../src/connections/events';
import { createConnection } from '../src/connections/store';
import { taskQueue } from '../src/temporal/task-queues';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp, type TestApp } from '../test/helpers/stack';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { planRecording, runRecorder } from './fixture-recorder';

type Run = { workflowId: string };

/** Every path, by name: each returns the run to save once it ended. */
const connectionPaths: Record<string, (app: TestApp, hooks: string) => Promise<Run>> = {
  /** deliverConnectionEvent of a connection.broken, started as the refresh activities start it, delivered to one subscriber. */
  'event-delivered': async (app, hooks) => {
    const ws = await app.newWorkspace();
    const sub = await app.request('POST', '/v1/calls/subscriptions', { key: ws.apiKey, body: { url: `${hooks}/broken`, events: ['connection.broken'] } });
    if (sub.status !== 200) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
    const { connection } = await createConnection(app.db, {
      workspaceId: ws.workspaceId,
      userId: null,
      integration: 'hubspot',
      kind: 'api_key',
      secrets: { apiKey: 'recorder' },
    });
    const { workflowId } = await publishConnectionBroken(app.temporal.client, app.config.TEMPORAL_TASK_QUEUE_PREFIX, {
      workspaceId: ws.workspaceId,
      connectionId: connection.id,
      brokenAt: new Date(),
    });
    const r = (await app.temporal.client.workflow.getHandle(workflowId).result()) as { delivered: number };
    if (r.delivered !== 1) throw new Error(`connection.broken delivered to ${r.delivered} subscribers`);
    return { workflowId };
  },
  /** refreshExpiringConnections for one workspace with nothing due (an operator's run; the schedule's takes every workspace). */
  refresh: async (app) => {
    const ws = await app.newWorkspace();
    const workflowId = `connection-refresh-recorder-${ws.workspaceId}`;
    await app.temporal.client.workflow.execute('refreshExpiringConnections', {
      workflowId,
      taskQueue: taskQueue('automations', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [{ horizonSeconds: 30 * 60, workspaceId: ws.workspaceId }],
    });
    return { workflowId };
  },
};

const plan = planRecording('connection', Object.keys(connectionPaths));

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const receiver = new WebhookReceiver();
  const app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.0/8' } });
  try {
    const hooks = await receiver.start();
    await plan.recordAll(app.temporal.client, (name) => connectionPaths[name]!(app, hooks));
  } finally {
    await receiver.close();
    await app.close();
    await globalTeardown();
  }
}

runRecorder(main);
