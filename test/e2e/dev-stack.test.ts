import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { portOpen } from '../../src/devstack/net';
import { sharedClusterBase } from '../../src/devstack/postgres';
import { zoneInDaytime } from '../helpers/calls';
import { freePort, runCli, spawnCli } from '../helpers/processes';
import { eventually } from '../helpers/webhook-receiver';

const asRoot = process.getuid?.() === 0;

// `npm start` end to end: a fresh data folder, its own Postgres cluster and Temporal dev server. The data folder
// sits in a private (mode 700) folder, as a checkout in root's home directory does.
describe('the dev stack (npm start)', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-home-'));
  const dataDir = path.join(home, 'checkout', '.data');
  // As root the cluster runs as `postgres`, who cannot enter home: it must live elsewhere, and say where.
  const clusterDir = path.join(asRoot ? sharedClusterBase(dataDir) : dataDir, 'postgres');
  let env: NodeJS.ProcessEnv;
  let ports: Record<'api' | 'pg' | 'temporal' | 'ui' | 'metrics' | 'sim' | 'sandbox' | 'voice', number>;

  beforeAll(async () => {
    ports = {
      api: await freePort(),
      pg: await freePort(),
      temporal: await freePort(),
      ui: await freePort(),
      metrics: await freePort(),
      sim: await freePort(),
      sandbox: await freePort(),
      voice: await freePort(),
    };
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
      WORKER_HEALTH_PORT: '0',
      TELEPHONY_BASE_URL: `http://127.0.0.1:${ports.sim}`,
      VENDOR_SANDBOX_URL: `http://127.0.0.1:${ports.sandbox}`,
      VOICE_PORT: String(ports.voice),
      LOG_LEVEL: 'warn',
    };
  });
  let running: ReturnType<typeof spawnCli> | undefined;
  afterAll(async () => {
    // A failed assertion must not leave the stack running.
    if (running && running.child.exitCode === null) {
      process.kill(-running.child.pid!, 'SIGINT');
      await running.exited;
    }
    const postmaster = path.join(clusterDir, 'postmaster.pid');
    if (existsSync(postmaster)) process.kill(Number(readFileSync(postmaster, 'utf8').split('\n')[0]), 'SIGQUIT');
    rmSync(home, { recursive: true, force: true });
    if (asRoot) rmSync(sharedClusterBase(dataDir), { recursive: true, force: true });
  });

  const start = async () => {
    // Its own process group, like a command typed in a terminal: a group signal reaches it and what it spawned.
    const stack = spawnCli(['dev'], env, { detached: true });
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
    expect(await portOpen('127.0.0.1', ports.sim)).toBe(false);
    expect(await portOpen('127.0.0.1', ports.sandbox)).toBe(false);
  };

  type Demo = { api_key: string; journey_id: string };

  /** Enrollment requests, `loops` at a time, until stopped; every answer's status (or network error) is kept. */
  const enrollInFlight = (demo: Demo, loops: number) => {
    const answers: { status: number | string; body?: unknown }[] = [];
    let stopped = false;
    const loop = async () => {
      while (!stopped) {
        const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
        try {
          const res = await fetch(`http://127.0.0.1:${ports.api}/v1/lead/sendtoworkflow`, {
            method: 'POST',
            headers: { authorization: `Bearer ${demo.api_key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ workflow_id: demo.journey_id, record: { phone, first_name: 'Load' } }),
          });
          answers.push({ status: res.status, body: await res.json().catch(() => 'not JSON') });
        } catch (err) {
          // Refused or cut once the api has gone: the loop ends.
          answers.push({ status: String((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message) });
          return;
        }
      }
    };
    const all = Promise.all(Array.from({ length: loops }, loop));
    return {
      answers,
      async finish() {
        stopped = true;
        await all;
        return answers;
      },
    };
  };

  /** Signals the launcher's whole process group (a terminal's Ctrl-C) while enrollments are in flight. */
  const stopGroupInFlight = async (stack: ReturnType<typeof spawnCli>, signal: 'SIGINT' | 'SIGTERM', demo: Demo) => {
    const load = enrollInFlight(demo, 8);
    await eventually(async () => load.answers.filter((a) => a.status === 200).length >= 16, 60_000, 'enrollments to be accepted');
    const signalledAt = stack.output().length;
    process.kill(-stack.child.pid!, signal);
    const code = await Promise.race([stack.exited, sleep(30_000).then(() => 'still running 30 s after the signal')]);
    const answers = await load.finish();
    expect(code).toBe(0);
    const after = stack.output().slice(signalledAt);
    expect(after).toMatch(/\[switchboard\] stopped/);
    process.stderr.write(`dev stack: ${signal} to the process group → ${/stopped \((\d+ ms)\)/.exec(after)?.[1]} to stop\n`);
    // Nothing is left: not the api, the Temporal dev server, or the private PostgreSQL (shut down, not only unreachable).
    for (const port of [ports.api, ports.temporal, ports.ui, ports.pg, ports.sim, ports.sandbox]) expect(await portOpen('127.0.0.1', port)).toBe(false);
    expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
    expect(() => process.kill(-stack.child.pid!, 0)).toThrow();
    // Every request was answered by the api (success, or 503 in the error shape while it drains) or refused after.
    const wrong = answers.filter((a) => typeof a.status === 'number' && a.status !== 200 && !(a.status === 503 && isFailure(a.body)));
    expect(wrong).toEqual([]);
    // A clean stop: no errors logged on the way (e.g. a worker retrying against a Temporal server already gone).
    expect(after).not.toMatch(/"level":(50|60)/);
  };

  it('starts everything, serves a demo workspace, stops cleanly and keeps its data across restarts', async () => {
    let stack = await start();
    const api = `http://127.0.0.1:${ports.api}`;
    // `ready:` is printed once the server sees every task queue polled, so work sent at once is picked up.
    const queues = /worker +task queues ([^;]+);/.exec(stack.output())![1]!.split(', ');
    expect(queues).toEqual(['journeys', 'calls', 'automations', 'chat', 'journeys-preview']);
    const conn = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
    for (const name of queues) {
      const { pollers } = await conn.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      expect([name, pollers.length > 0]).toEqual([name, true]);
    }
    await conn.close();
    expect(stack.output()).toContain(`api           ${api}`);
    expect(stack.output()).toContain(`UI http://127.0.0.1:${ports.ui}`);
    expect(stack.output()).toContain(`telephony     carrier simulator http://127.0.0.1:${ports.sim}  ledger http://127.0.0.1:${ports.sim}/ledger`);
    const sandbox = `http://127.0.0.1:${ports.sandbox}`;
    expect(stack.output()).toContain(`vendors       sandbox ${sandbox} (slack, hubspot, google_calendar)  ledger ${sandbox}/ledger`);
    // The voice process, started by us (not one found on the port), with the embedded engines the agent defaults name.
    expect(stack.output()).toContain(`voice         media streams `);
    expect(stack.output()).toContain(`readyz http://127.0.0.1:${ports.voice}/readyz\n`);
    expect(stack.output()).toMatch(
      /voice engines vad local\/silero \(local\/silero-vad-v5\); stt local\/whisper-tiny\.en; tts local\/piper \(local\/(piper-joe|espeak[^)]*)\); llm scripted/,
    );
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(stack.output()).toContain(`cluster ${clusterDir}`);
    expect(existsSync(path.join(clusterDir, 'PG_VERSION'))).toBe(true);
    if (asRoot) expect(stack.output()).toContain(`PostgreSQL cluster in ${clusterDir} (the postgres user cannot enter ${dataDir})`);

    const demo = await runCli(['demo', '--json'], env);
    expect(demo.code).toBe(0);
    const lines = demo.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(
      [
        'agent_id',
        'api_key',
        'base_url',
        'chat_demo_url',
        'chat_ws_url',
        'flow_id',
        'hooks_url',
        'integrations_url',
        'journey_id',
        'superuser_key',
        'user',
        'vendor_sandbox_url',
        'workspace_id',
        'wss_url',
      ].sort(),
    );
    expect(out.vendor_sandbox_url).toBe(sandbox);
    // An automation succeeds out of the box: the demo's Slack connection reaches the sandbox npm start runs.
    const automation = await fetch(`${api}/api/automation/execute`, {
      method: 'POST',
      headers: { 'x-key': out.superuser_key, 'content-type': 'application/json' },
      body: JSON.stringify({ automationType: 'slack', nodeParams: { action: 'post_message', params: { channel: '#demo', text: 'dev stack' } } }),
    });
    // The whole envelope on a failure: its error and errorType say why (a CI run once saw success false here).
    const envelope = (await automation.json()) as { success: boolean; error: unknown; metadata?: { errorType?: unknown } };
    expect({ success: envelope.success, error: envelope.error, errorType: envelope.metadata?.errorType ?? null }).toEqual({
      success: true,
      error: null,
      errorType: null,
    });
    expect(envelope).toMatchObject({ data: { ts: expect.any(String) } });
    const { requests } = (await (await fetch(`${sandbox}/ledger`)).json()) as { requests: { path: string; body: unknown }[] };
    expect(requests).toContainEqual(expect.objectContaining({ path: '/slack/api/chat.postMessage', body: { channel: '#demo', text: 'dev stack' } }));
    expect(out.base_url).toBe(`${api}/v1`);
    expect(out.wss_url).toBe(`ws://127.0.0.1:${ports.api}`);

    const ready = await fetch(`${api}/readyz`);
    expect(ready.status).toBe(200);
    const me = await fetch(`${api}/v1/me`, { headers: { authorization: `Bearer ${out.api_key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { workspace_id: string }).workspace_id).toBe(out.workspace_id);
    // The demo persona's picture and the favicon come from the api itself (no outside link that cannot load).
    const { agent } = (await (await fetch(`${api}/v1/agents/${out.agent_id}`, { headers: { authorization: `Bearer ${out.api_key}` } })).json()) as {
      agent: { profile_picture: string };
    };
    expect(agent.profile_picture).toBe(`${api}/webchat/avatar.svg`);
    for (const image of [agent.profile_picture, `${api}/favicon.ico`]) {
      const res = await fetch(image);
      expect([image, res.status, res.headers.get('content-type')]).toEqual([image, 200, 'image/svg+xml']);
      expect(await res.text()).toMatch(/^<svg /);
    }
    expect(await (await fetch(out.chat_demo_url)).text()).toContain('<link rel="icon" href="/favicon.svg"');
    // The demo agent is callable: the call goes through the embedded carrier simulator to its end (to a lead whose
    // time zone is in daytime now, so the call window is open whenever the test runs).
    const lead = await fetch(`${api}/v1/lead/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${out.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+14155550001', timezone: zoneInDaytime() }),
    });
    expect(lead.status).toBe(200);
    const placed = await fetch(`${api}/v1/agent`, {
      method: 'POST',
      headers: { authorization: `Bearer ${out.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: out.agent_id, phone: '+14155550001' }),
    });
    expect(placed.status).toBe(200);
    const { call_id } = (await placed.json()) as { call_id: string };
    const ended = await eventually(
      async () => {
        const res = await fetch(`${api}/v1/calls/get?call_id=${call_id}`, { headers: { authorization: `Bearer ${out.api_key}` } });
        const [record] = (await res.json()) as { status: string; transcript: string | null }[];
        return record?.status === 'completed' && record;
      },
      60_000,
      'the demo call to complete',
    );
    expect(ended.transcript).toMatch(/^agent: /);
    expect((await fetch(`http://127.0.0.1:${ports.ui}/`)).status).toBe(200);
    // The UI decodes payloads through the api's codec endpoint; the worker says which queues it polls.
    const uiSettings = (await (await fetch(`http://127.0.0.1:${ports.ui}/api/v1/settings`)).json()) as { Codec: { Endpoint: string } };
    expect(uiSettings.Codec.Endpoint).toMatch(new RegExp(`^${api}/temporal-codec/[A-Za-z0-9_-]{40,}$`));
    const workerReady = stack.output().match(/readyz (http:\/\/127\.0\.0\.1:\d+)\/readyz/)?.[1];
    expect(((await (await fetch(`${workerReady}/readyz`)).json()) as { taskQueues: string[] }).taskQueues).toEqual([
      'journeys',
      'calls',
      'automations',
      'chat',
      'journeys-preview',
    ]);
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
        expect.arrayContaining(['WorkspaceId', 'LeadId', 'JourneyId', 'CallId', 'AgentId', 'AutomationType', 'Outcome']),
      );
    } finally {
      await connection2.close();
    }
    await stopGroupInFlight(stack, 'SIGTERM', out);
  }, 400_000);

  it('stops everything on a Ctrl-C to the whole process group with enrollments in flight', async () => {
    const stack = await start();
    const demo = await runCli(['demo', '--json'], env);
    await stopGroupInFlight(stack, 'SIGINT', JSON.parse(demo.stdout) as Demo);
  }, 300_000);

  it('stops Postgres and everything else, and exits 1 saying so, when the api and worker process is killed (kill -9)', async () => {
    const stack = await start();
    const pid = Number(/api and worker (\d+)/.exec(stack.output())?.[1]);
    expect(pid).toBeGreaterThan(0);
    const killedAt = stack.output().length;
    process.kill(pid, 'SIGKILL');
    const code = await Promise.race([stack.exited, sleep(60_000).then(() => 'still running 60 s after the kill')]);
    expect(code).toBe(1);
    const after = stack.output().slice(killedAt);
    expect(after).toMatch(/\[switchboard\] the api and worker process was killed by SIGKILL: stopping/);
    expect(after).toMatch(/\[switchboard\] stopped/);
    for (const port of [ports.api, ports.temporal, ports.ui, ports.pg, ports.sim, ports.sandbox]) expect(await portOpen('127.0.0.1', port)).toBe(false);
    expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
    expect(() => process.kill(-stack.child.pid!, 0)).toThrow();
  }, 300_000);

  it('refuses a bad configuration, naming the variable', async () => {
    const res = await runCli(['dev'], { ...env, PORT: 'eighty' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/PORT: /);
  });
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const isFailure = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  (body as { status?: unknown }).status === 'failed' &&
  typeof (body as { message?: unknown }).message === 'string';
