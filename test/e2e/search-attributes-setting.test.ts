import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startApi } from '../../src/main';
import { testEnv } from '../helpers/env';
import { freePort } from '../helpers/processes';
import { testConfig, type TestApp } from '../helpers/stack';
import { killWorkerProcesses, outputMatch, spawnOnApp } from '../helpers/worker-process';

jest.setTimeout(120_000);

// A production namespace (or Temporal Cloud) gives the api and the worker no operator rights: with
// REGISTER_SEARCH_ATTRIBUTES=false (as `npm run cluster` sets, its setup step registers them) they must not try.
let connection: Connection;
let namespace: string;
const custom = async () => Object.keys((await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {}).sort();

beforeAll(async () => {
  connection = await Connection.connect({ address: testEnv('temporalAddress') });
  namespace = `sa-${randomBytes(4).toString('hex')}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
});
afterAll(async () => {
  killWorkerProcesses();
  await connection?.close();
});

test('with REGISTER_SEARCH_ATTRIBUTES=false neither the api nor the worker registers search attributes; by default the api does', async () => {
  const config = testConfig({ TEMPORAL_NAMESPACE: namespace, REGISTER_SEARCH_ATTRIBUTES: 'false' });
  const api = await startApi(config);
  await api.close();
  const worker = spawnOnApp({ config } as TestApp, path.join('worker', 'main.ts'), {
    TEMPORAL_NAMESPACE: namespace,
    REGISTER_SEARCH_ATTRIBUTES: 'false',
    WORKER_HEALTH_PORT: '0',
    WORKER_METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'info',
  });
  await outputMatch(worker, 'worker polling', (out) => (out.includes('worker polling') ? true : undefined));
  worker.kill('SIGTERM');
  await new Promise((r) => worker.once('exit', r));
  expect(await custom()).toEqual([]);

  const registering = await startApi(testConfig({ TEMPORAL_NAMESPACE: namespace }));
  await registering.close();
  expect(await custom()).toEqual(['AgentId', 'AutomationType', 'CallId', 'FlowId', 'JourneyId', 'LeadId', 'Outcome', 'WorkspaceId']);
});
