// Who registers the custom search attributes: the setup job (every key of SA), or the api and worker at start only
// while TEMPORAL_REGISTER_SEARCH_ATTRIBUTES is on. Each case uses a namespace of its own on the real dev server.
import { Connection } from '@temporalio/client';
import Long from 'long';
import { randomBytes } from 'node:crypto';
import { startApi } from '../../src/api/main';
import { SA } from '../../src/temporal/search-attribute-keys';
import { setupSearchAttributes } from '../../src/temporal/setup-search-attributes';
import { testEnv } from '../helpers/env';
import { testConfig, startTestApp } from '../helpers/stack';
import { killWorkerProcesses, startWorkerProcess } from '../helpers/worker-process';

const ours = Object.values(SA)
  .map((k) => k.name)
  .sort();
let connection: Connection;

beforeAll(async () => {
  connection = await Connection.connect({ address: testEnv('temporalAddress') });
});
afterAll(async () => {
  killWorkerProcesses();
  await connection.close();
});

/** A new namespace, once the frontend answers for it (its namespace cache learns of it a moment later). */
async function newNamespace(): Promise<string> {
  const namespace = `sa-${randomBytes(4).toString('hex')}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86_400) } });
  for (;;) {
    try {
      await connection.operatorService.listSearchAttributes({ namespace });
      return namespace;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const registered = async (namespace: string) =>
  Object.keys((await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {})
    .filter((name) => ours.includes(name))
    .sort();

describe('search attribute registration', () => {
  it('the setup job registers every attribute of SA, FlowId and AgentId included, and is idempotent', async () => {
    const namespace = await newNamespace();
    const first = await setupSearchAttributes({ TEMPORAL_ADDRESS: testEnv('temporalAddress'), TEMPORAL_NAMESPACE: namespace });
    expect(first.added.sort()).toEqual(ours);
    expect(ours).toEqual(expect.arrayContaining(['FlowId', 'AgentId']));
    expect(await registered(namespace)).toEqual(ours);
    const again = await setupSearchAttributes({ TEMPORAL_ADDRESS: testEnv('temporalAddress'), TEMPORAL_NAMESPACE: namespace });
    expect(again.added).toEqual([]);
  }, 60_000);

  it('the api registers none at start with TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=false, and all by default', async () => {
    const off = await newNamespace();
    const api = await startApi(testConfig({ TEMPORAL_NAMESPACE: off, TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'false' }));
    await api.close();
    expect(await registered(off)).toEqual([]);

    const on = await newNamespace();
    const api2 = await startApi(testConfig({ TEMPORAL_NAMESPACE: on }));
    await api2.close();
    expect(await registered(on)).toEqual(ours);
  }, 120_000);

  it('the worker process registers none at start with TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=false, and all by default', async () => {
    const app = await startTestApp();
    try {
      const off = await newNamespace();
      const quiet = await startWorkerProcess(app, { TEMPORAL_NAMESPACE: off, TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'false', WORKER_TASK_QUEUES: 'automations' });
      quiet.kill('SIGKILL');
      expect(await registered(off)).toEqual([]);

      const on = await newNamespace();
      const registering = await startWorkerProcess(app, { TEMPORAL_NAMESPACE: on, WORKER_TASK_QUEUES: 'automations' });
      registering.kill('SIGKILL');
      expect(await registered(on)).toEqual(ours);
    } finally {
      await app.close();
    }
  }, 180_000);
});
