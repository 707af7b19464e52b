// Calls: POST /v1/agent through the real api (auth, validation, agent/DNC/window checks, the call row and its slot, the
// SDK's typed start) against a raw client.workflow.start of the same outboundCall workflow and input; then calls
// completed per second end to end through the carrier simulator (api, workers, Postgres, signed callbacks).
import { Client, Connection } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { migrate } from '../src/db/migrate';
import { createDb, type Db } from '../src/db/pool';
import { createAgent, createPhoneGroup } from '../src/agents/db/agents';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { createLogger } from '../src/telemetry/log';
import { connectTemporal } from '../src/temporal/client';
import { callWorkflowId } from '../src/temporal/ids';
import { ensureSearchAttributes, runSearchAttributes } from '../src/temporal/search-attributes';
import { taskQueue } from '../src/temporal/task-queues';
import { startSimulator } from '../src/telephony/simulator/server';
import type { OutboundCallInput } from '../workflows/calls/outbound-call-types';
import { benchConfig, benchWorkspace, listenApp, runServiceWorkers } from './in-process';
import { measure, report, type BenchContext, type Figure } from './lib';
import { forkApi } from './server-process';
import { jsonPoster } from './http-load';
import { compareStarts, SaturationMeters, terminateBenchRuns, warmupOptions } from './steady';

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
  const ws = await benchWorkspace(db, ctx, 'calls', { timezone: zoneInDaytime() });
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
  ctx.defer(() => terminateBenchRuns(ctx, client, queue, ctx.temporal.namespace, 'calls'));
  ctx.say(`Starting the api in a child process (task queue ${queue}, no workers).`);
  const {
    message: { port },
    pid: apiPid,
    cpu,
    usage,
  } = await forkApi(ctx, { databaseUrl, temporal: ctx.temporal, prefix, profileDir });
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
      typedSearchAttributes: runSearchAttributes.outboundCall({ workspaceId: ws.workspaceId, callId, agentId: ws.agentId }),
    });
  };
  await place();
  const compared = await compareStarts(ctx, {
    rounds,
    requests,
    serial,
    concurrency,
    meters,
    apiCpu: cpu,
    raw: rawStart,
    api: () => place(),
    labels: { raw: 'raw client.workflow.start(outboundCall)', api: 'POST /v1/agent', apiShort: 'POST /v1/agent', op: 'call' },
  });

  // Part 2: calls to their end through the simulator, api and workers in this process.
  ctx.say(`End to end: ${e2eCalls} calls through the carrier simulator at speed ${speed}…`);
  const e2e = await endToEnd(ctx, databaseUrl, e2eCalls, speed, concurrency);

  const figures: Figure[] = [
    ...compared.figures,
    [`calls completed end to end through the simulator (speed ${speed}, ${e2eCalls} calls)`, e2e.perSecond, '/s'],
    ['end to end: seconds for all calls to end', e2e.seconds, 's'],
  ];
  return report('calls', figures, {
    value: compared.ratio,
    what: `POST /v1/agent / raw start throughput at ${concurrency} in flight, median of ${rounds} rounds, each A B B A`,
  });
}

/** Places n calls through an in-process api with workers and the simulator; calls completed per second. */
async function endToEnd(ctx: BenchContext, databaseUrl: string, n: number, speed: number, concurrency: number) {
  const sim = await startSimulator({ authToken: 'simulator-auth-token', speed });
  ctx.defer(() => sim.close());
  const prefix = `bench-calls-e2e-${randomBytes(3).toString('hex')}`;
  const config = benchConfig(ctx, databaseUrl, prefix, { TELEPHONY_BASE_URL: sim.url, RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_ADDRESS: '0' });
  const logger = createLogger('warn', 'bench');
  const db = createDb(databaseUrl, { max: 20 });
  ctx.defer(() => db.close());
  const { connection, client } = await connectTemporal(config);
  ctx.defer(() => connection.close());
  const port = await listenApp(ctx, { config, db, temporal: { connection, client }, logger });
  config.TELEPHONY_CALLBACK_BASE_URL = `http://127.0.0.1:${port}`;

  await runServiceWorkers(ctx, { config, db, logger });

  const ws = await callingWorkspace(db, ctx);
  const place = placer(port, ws.key, ws.agentId, concurrency, ctx.defer);
  const started = performance.now();
  const ids: string[] = [];
  await measure(n, concurrency, async () => void ids.push(await place()));
  await Promise.all(ids.map((id) => client.workflow.getHandle(callWorkflowId(id)).result()));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: n / seconds, seconds };
}
