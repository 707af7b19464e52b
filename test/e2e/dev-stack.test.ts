import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { portOpen } from '../../src/devstack/net';
import { freePort, runCli, spawnCli } from '../helpers/processes';

// `npm start` end to end: a fresh data folder, its own Postgres cluster and Temporal dev server.
describe('the dev stack (npm start)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sb-stack-'));
  let env: NodeJS.ProcessEnv;
  let ports: Record<'api' | 'pg' | 'temporal' | 'ui' | 'metrics', number>;

  beforeAll(async () => {
    ports = { api: await freePort(), pg: await freePort(), temporal: await freePort(), ui: await freePort(), metrics: await freePort() };
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
      TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH,
      SWITCHBOARD_DATA_DIR: dataDir,
      DEV_POSTGRES_PORT: String(ports.pg),
      TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
      TEMPORAL_UI_PORT: String(ports.ui),
      PORT: String(ports.api),
      WORKER_METRICS_PORT: String(ports.metrics),
      LOG_LEVEL: 'warn',
    };
  });
  let running: ReturnType<typeof spawnCli> | undefined;
  afterAll(async () => {
    // A failed assertion must not leave the stack running.
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGINT');
      await running.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const stack = spawnCli(['dev'], env);
    await stack.waitFor(/Ctrl-C stops everything/, 180_000);
    running = stack;
    return stack;
  };
  const stop = async (stack: ReturnType<typeof spawnCli>) => {
    stack.child.kill('SIGINT');
    expect(await stack.exited).toBe(0);
    expect(stack.output()).toMatch(/\[switchboard\] stopped/);
    expect(await portOpen('127.0.0.1', ports.api)).toBe(false);
    expect(await portOpen('127.0.0.1', ports.temporal)).toBe(false);
    expect(await portOpen('127.0.0.1', ports.pg)).toBe(false);
  };

  it('starts everything, serves a demo workspace, stops cleanly and keeps its data across restarts', async () => {
    let stack = await start();
    const api = `http://127.0.0.1:${ports.api}`;
    expect(stack.output()).toContain(`api           ${api}`);
    expect(stack.output()).toContain(`UI http://127.0.0.1:${ports.ui}`);

    const demo = await runCli(['demo', '--json'], env);
    expect(demo.code).toBe(0);
    const lines = demo.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(
      ['agent_id', 'api_key', 'base_url', 'flow_id', 'hooks_url', 'integrations_url', 'journey_id', 'superuser_key', 'user', 'workspace_id', 'wss_url'].sort(),
    );
    expect(out.base_url).toBe(`${api}/v1`);
    expect(out.wss_url).toBe(`ws://127.0.0.1:${ports.api}`);

    const ready = await fetch(`${api}/readyz`);
    expect(ready.status).toBe(200);
    const me = await fetch(`${api}/v1/me`, { headers: { authorization: `Bearer ${out.api_key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { workspace_id: string }).workspace_id).toBe(out.workspace_id);
    expect((await fetch(`http://127.0.0.1:${ports.ui}/`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text()).toMatch(/temporal_/);

    // The worker polls every task queue.
    const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS! });
    try {
      for (const name of ['journeys', 'calls', 'automations', 'chat']) {
        const res = await connection.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        expect(res.pollers.length).toBeGreaterThan(0);
      }
      // A run that must survive the restart (the SQLite file is kept under the data folder).
      await connection.workflowService.startWorkflowExecution({
        namespace: 'default',
        workflowId: 'persistence-probe',
        workflowType: { name: 'probe' },
        taskQueue: { name: 'nobody-polls-this' },
        requestId: 'persistence-probe',
      });
    } finally {
      await connection.close();
    }
    await stop(stack);

    stack = await start();
    expect(stack.output()).not.toMatch(/Creating a private PostgreSQL cluster/);
    const again = await fetch(`${api}/v1/me`, { headers: { authorization: `Bearer ${out.api_key}` } });
    expect(again.status).toBe(200);
    const connection2 = await Connection.connect({ address: env.TEMPORAL_ADDRESS! });
    try {
      const described = await connection2.workflowService.describeWorkflowExecution({
        namespace: 'default',
        execution: { workflowId: 'persistence-probe' },
      });
      expect(described.workflowExecutionInfo?.type?.name).toBe('probe');
      const attrs = await connection2.operatorService.listSearchAttributes({ namespace: 'default' });
      expect(Object.keys(attrs.customAttributes ?? {})).toEqual(
        expect.arrayContaining(['WorkspaceId', 'LeadId', 'JourneyId', 'CallId', 'AutomationType', 'Outcome']),
      );
    } finally {
      await connection2.close();
    }
    await stop(stack);
  }, 400_000);

  it('refuses a bad configuration, naming the variable', async () => {
    const res = await runCli(['dev'], { ...env, PORT: 'eighty' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/PORT: /);
  });
});
