// Calls: POST /v1/agent through the real api (auth, validation, agent/DNC/window checks, the call row and its slot, the
// SDK's typed start) against a raw client.workflow.start of the same outboundCall workflow and input; then calls
// completed per second end to end through the carrier simulator (api, workers, Postgres, signed callbacks).
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/http/app';
import { loadConfig } from '../src/core/config';
import { migrate } from '../src/db/migrate';
import { createDb, type Db } from '../src/db/pool';
import { createAgent, createPhoneGroup } from '../src/agents/db/agents';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { createWorkspace } from '../src/workspaces/db/workspaces';
import { createLogger } from '../src/telemetry/log';
import { connectNativeTemporal, connectTemporal } from '../src/temporal/client';
import { callWorkflowId } from '../src/temporal/ids';
import { ensureSearchAttributes, SA } from '../src/temporal/search-attributes';
import { taskQueue } from '../src/temporal/task-queues';
import { startSimulator } from '../src/telephony/simulator/server';
import { createWorkers, workflowInterceptorModules, workflowsPath } from '../worker/workers';
import type { OutboundCallInput } from '../workflows/calls/outbound-call-types';
import { alternateBalanced, measure, measurementFigures, report, summarize, type BenchContext, type Figure } from './lib';
import { forkServer } from './server-process';
import { jsonPoster } from './http-load';
import { SaturationMeters, warmupOptions, warmUntilSteady } from './steady';

/** Shown by `npm run bench -- --list`. */
export const description =
  'Calls: POST /v1/agent vs raw client.workflow.start of outboundCall (saturation, one at a time); calls completed/s through the simulator';

/** As for enrollments: at least 0.90 of the baseline's throughput. */
export const goal = 0.9;

export const options = {
  requests: 'calls per side per saturation round, in two runs of half (default 300)',
  rounds: 'alternating rounds, each A B B A (default 6)',
  concurrency: 'in flight at saturation (default 16)',
  serial: 'calls per side per one-at-a-time round, in two runs of half (default 40)',
  'e2e-calls': 'calls placed for the end-to-end throughput (default 200)',
  speed: 'carrier simulator speed for the end-to-end part (default 50)',
  profile: 'write a V8 CPU profile of the api process (part 1) into this directory',
  ...warmupOptions,
};

/** A zone where it is now daytime, so the default call window (08:00–21:00 local) is open whenever the bench runs. */
function zoneInDaytime(): string {
  const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(new Date()));
  return Intl.supportedValuesOf('timeZone').find((z) => hour(z) >= 10 && hour(z) < 18) ?? 'UTC';
}

/** A workspace with a key and a callable agent; no cap in the way of the measurement. */
async function callingWorkspace(db: Db, ctx: BenchContext) {
  const ws = await createWorkspace(db, { name: `bench calls ${randomBytes(3).toString('hex')}`, timezone: zoneInDaytime() });
  ctx.defer(() => db.query('DELETE FROM workspaces WHERE id = $1', [ws.id]).then(() => undefined));
  await db.query('UPDATE workspaces SET max_concurrent_calls = 1000000 WHERE id = $1', [ws.id]);
  const { key } = await createApiKey(db, ws.id, { name: 'bench' });
  const group = await createPhoneGroup(db, ws.id, { name: 'bench', numbers: ['12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Bench', phoneGroupId: group.id });
  return { workspaceId: ws.id, key, agentId: agent.id };
}

/** POSTs /v1/agent (through the undici load generator); resolves with the call id. */
function placer(port: number, key: string, agentId: string, concurrency: number, defer: BenchContext['defer']) {
  const post = jsonPoster(port, concurrency, defer);
  const headers = { authorization: `Bearer ${key}` };
  let seq = 0;
  return async (rule = '4321') => {
    const phone = `1212${200 + (seq++ % 800)}${rule}`;
    const res = await post('/v1/agent', JSON.stringify({ agent: agentId, phone }), headers);
    if (res.status !== 200) throw new Error(`HTTP ${res.status} ${res.text.slice(0, 200)}`);
    return (JSON.parse(res.text) as { call_id: string }).call_id;
  };
}

export async function run(ctx: BenchContext): Promise<number> {
  const requests = ctx.flags.int('requests', 300);
  const rounds = ctx.flags.int('rounds', 6);
  const concurrency = ctx.flags.int('concurrency', 16);
  const serial = ctx.flags.int('serial', 40);
  const e2eCalls = ctx.flags.int('e2e-calls', 200);
  const speed = ctx.flags.int('speed', 50);
  const profileDir = ctx.flags.str('profile', '');

  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 10 });
  ctx.defer(() => db.close());
  await migrate(db);
  const connection = await Connection.connect(ctx.temporal.connect);
  ctx.defer(() => connection.close());
  const client = new Client({ connection, namespace: ctx.temporal.namespace });
  await ensureSearchAttributes(connection, ctx.temporal.namespace);

  // Part 1: the start alone. No worker polls this queue; the runs are terminated at the end.
  const ws = await callingWorkspace(db, ctx);
  const prefix = `bench-calls-${randomBytes(3).toString('hex')}`;
  const queue = taskQueue('calls', prefix);
  ctx.defer(() => terminateAll(ctx, client, queue));
  ctx.say(`Starting the api in a child process (task queue ${queue}, no workers).`);
  const {
    message: { port },
    pid: apiPid,
    cpu,
    usage,
  } = await forkServer<{ port: number }>(
    ctx,
    path.join(__dirname, 'enroll', 'server.ts'),
    {
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_TEMPORAL_ADDRESS: ctx.temporal.address,
      TEMPORAL_NAMESPACE: ctx.temporal.namespace,
      TEMPORAL_TASK_QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'warn',
    },
    profileDir,
  );
  const place = placer(port, ws.key, ws.agentId, concurrency, ctx.defer);
  const meters = await SaturationMeters.of(db, { pid: apiPid, usage });
  const rawStart = async () => {
    const callId = randomUUID();
    const input: OutboundCallInput = {
      callId,
      workspaceId: ws.workspaceId,
      agentId: ws.agentId,
      to: '12125554321',
      from: '12125559002',
      waitForSlot: false,
      source: 'api',
    };
    await client.workflow.start('outboundCall', {
      taskQueue: queue,
      workflowId: callWorkflowId(callId),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: SA.WorkspaceId, value: ws.workspaceId },
        { key: SA.CallId, value: callId },
        { key: SA.AgentId, value: ws.agentId },
      ],
    });
  };
  const half = Math.max(1, Math.floor(requests / 2));
  const halfSerial = Math.max(1, Math.floor(serial / 2));
  const measureApi = () => meters.measureApi(() => measure(half, concurrency, () => place()));

  await place();
  await warmUntilSteady(ctx, concurrency, { raw: rawStart, api: () => place() }, cpu);
  ctx.say(`${rounds} alternating rounds (A B B A) of ${2 * half} calls per side at ${concurrency} in flight…`);
  const sat = await alternateBalanced(
    rounds,
    () => meters.raw.book(() => measure(half, concurrency, rawStart)),
    measureApi,
    (m) => m.perSecond,
  );
  ctx.say(`${rounds} alternating rounds (A B B A) of ${2 * halfSerial} calls per side one at a time…`);
  const one = await alternateBalanced(
    rounds,
    () => measure(halfSerial, 1, rawStart),
    () => measure(halfSerial, 1, () => place()),
    (m) => m.p50,
  );

  // Part 2: calls to their end through the simulator, api and workers in this process.
  ctx.say(`End to end: ${e2eCalls} calls through the carrier simulator at speed ${speed}…`);
  const e2e = await endToEnd(ctx, databaseUrl, e2eCalls, speed, concurrency);

  const rawSat = summarize(sat.rounds.map((r) => r.baseline));
  const oursSat = summarize(sat.rounds.map((r) => r.candidate));
  const rawOne = summarize(one.rounds.map((r) => r.baseline));
  const oursOne = summarize(one.rounds.map((r) => r.candidate));
  const figures: Figure[] = [
    ...sat.rounds.map((r, i) => meters.roundFigure(i, r, `raw start / POST /v1/agent, ${concurrency} in flight`, 'call')),
    ...measurementFigures(`raw client.workflow.start(outboundCall), ${concurrency} in flight (median of rounds)`, rawSat),
    ...measurementFigures(`POST /v1/agent, ${concurrency} in flight (median of rounds)`, oursSat),
    ...measurementFigures('raw client.workflow.start(outboundCall), one at a time (median of rounds)', rawOne),
    ...measurementFigures('POST /v1/agent, one at a time (median of rounds)', oursOne),
    ...meters.figures('raw start', 'POST /v1/agent', 'call'),
    ['one at a time: p50 over the raw start p50', oursOne.p50 - rawOne.p50, 'ms'],
    [`calls completed end to end through the simulator (speed ${speed}, ${e2eCalls} calls)`, e2e.perSecond, '/s'],
    ['end to end: seconds for all calls to end', e2e.seconds, 's'],
  ];
  return report('calls', figures, {
    value: sat.medianRatio,
    what: `POST /v1/agent / raw start throughput at ${concurrency} in flight, median of ${rounds} rounds, each A B B A`,
  });
}

/** Places n calls through an in-process api with workers and the simulator; calls completed per second. */
async function endToEnd(ctx: BenchContext, databaseUrl: string, n: number, speed: number, concurrency: number) {
  const sim = await startSimulator({ authToken: 'simulator-auth-token', speed });
  ctx.defer(() => sim.close());
  const prefix = `bench-calls-e2e-${randomBytes(3).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: ctx.temporal.address,
    TEMPORAL_NAMESPACE: ctx.temporal.namespace,
    TEMPORAL_TASK_QUEUE_PREFIX: prefix,
    TELEPHONY_BASE_URL: sim.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ADDRESS: '0',
  });
  const logger = createLogger('warn', 'bench');
  const db = createDb(databaseUrl, { max: 20 });
  ctx.defer(() => db.close());
  const { connection, client } = await connectTemporal(config);
  ctx.defer(() => connection.close());
  const app = createApp({ config, db, temporal: { connection, client }, logger });
  await app.startListeners();
  ctx.defer(() => app.close());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  ctx.defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  config.TELEPHONY_CALLBACK_BASE_URL = `http://127.0.0.1:${port}`;

  const native = await connectNativeTemporal(config);
  ctx.defer(() => native.close());
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules });
  const bundlePath = path.join(os.tmpdir(), `bench-calls-bundle-${process.pid}.js`);
  writeFileSync(bundlePath, code);
  ctx.defer(() => rmSync(bundlePath, { force: true }));
  const workers = await createWorkers({
    connection: native,
    db,
    logger,
    config,
    namespace: ctx.temporal.namespace,
    taskQueuePrefix: prefix,
    bundlePath,
    shutdownGraceMs: 1000,
  });
  const running = Promise.all(workers.map((w) => w.run()));
  ctx.defer(async () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await running;
  });

  const ws = await callingWorkspace(db, ctx);
  const place = placer(port, ws.key, ws.agentId, concurrency, ctx.defer);
  const started = performance.now();
  const ids: string[] = [];
  await measure(n, concurrency, async () => void ids.push(await place()));
  await Promise.all(ids.map((id) => client.workflow.getHandle(callWorkflowId(id)).result()));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: n / seconds, seconds };
}

/** Terminates every run left on the bench's task queue (nothing polls it). */
async function terminateAll(ctx: BenchContext, client: Client, queue: string): Promise<void> {
  await client.workflowService.startBatchOperation({
    namespace: ctx.temporal.namespace,
    jobId: randomUUID(),
    reason: 'bench calls cleanup',
    visibilityQuery: `TaskQueue = '${queue}' AND ExecutionStatus = 'Running'`,
    terminationOperation: {},
  });
  ctx.say(`Asked Temporal to terminate the bench runs on ${queue}.`);
}
