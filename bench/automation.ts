// The automation endpoint against the same adapter called directly, a bare one-activity workflow doing the call, and
// P4's baseline: an eager start of a bare one-local-activity workflow (the endpoint's own path without the api), one
// call at a time, in alternated rounds on the same Temporal server.
//
// One at a time means each call starts once the previous one's run has ended. The baseline's call is its run (it
// waits for the result), but the endpoint answers as soon as its activity has recorded the outcome, before its run's
// last workflow task completes: called back to back, each call shares the two cores with the previous run's ending
// (its task completion, Outcome search attribute and close, work the baseline's latency already counts). So P4's
// endpoint side waits for each run's end before its next call, outside the call's latency; the same endpoint called
// back to back is reported beside it.
import { Client, type WorkflowClientInterceptor } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { runIntegrationAction } from '../src/integrations/run';
import { createLogger } from '../src/telemetry/log';
import { connectNativeTemporal, connectTemporal, temporalDataConverter } from '../src/temporal/client';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { createWorkers } from '../worker/workers';
import { measureRefresh } from './automation/oauth-refresh';
import { benchConfig, benchWorkspace, listenApp, runWorkers } from './in-process';
import { measure, measurementFigures, median, report, summarize, type BenchContext, type Figure, type Measurement } from './lib';
import { quietTemporalRuntime } from './temporal-raw';
import { jsonPoster } from './http-load';
import type { AutomationRawActivities } from './workflows/automation-raw';

/** Shown by `npm run bench -- --list`. */
export const description =
  'Automation endpoint vs a raw eager start of a one-local-activity workflow (P4: p50 <= 1.25x, p99 <= 1.5x), the adapter called directly and a bare one-activity workflow, one call at a time';

export const options = {
  calls: 'calls per side per round (default 100)',
  rounds: 'alternated rounds (default 3)',
};

/** Met when the eager endpoint's p50 is at most 1.25x the raw eager start's (ratio = 1.25 x raw p50 / endpoint p50). */
export const goal = 1;

const NONE = { id: null, integration: 'proxy', kind: 'none' as const, secrets: {}, settings: {} };

export async function run(ctx: BenchContext): Promise<number> {
  const calls = ctx.flags.int('calls', 100);
  const rounds = ctx.flags.int('rounds', 3);
  quietTemporalRuntime();

  // The vendor: a loopback server answering a small JSON body at once.
  const vendor = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
  await new Promise<void>((r) => vendor.listen(0, '127.0.0.1', r));
  ctx.defer(() => new Promise<void>((r) => vendor.close(() => r())));
  const url = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/hook`;
  const params = { apiMethod: 'POST', apiURL: url, requestBodyJson: { n: 1 } };
  const allow = ['127.0.0.1/8'];

  const databaseUrl = await ctx.databaseUrl();
  const prefix = `bench-auto-${randomBytes(3).toString('hex')}`;
  const config = benchConfig(ctx, databaseUrl, prefix, { SSRF_ALLOWLIST: allow.join(','), PORT: '0' });
  const logger = createLogger('warn', 'bench');
  const db = createDb(databaseUrl, { max: 10, logger });
  ctx.defer(() => db.close());
  await migrate(db);
  const ws = await benchWorkspace(db, ctx, 'automation');
  const { key } = await createApiKey(db, ws.id, { name: 'bench', superuser: true });

  const { connection: clientConnection, client } = await connectTemporal(config);
  ctx.defer(() => clientConnection.close());
  await ensureSearchAttributes(clientConnection, ctx.temporal.namespace);
  // The raw baseline is bare Temporal: no payload codec (the api's side pays for its encryption).
  const rawClient = new Client({ connection: clientConnection, namespace: ctx.temporal.namespace });
  ctx.say(`Bundling the workflows and starting the workers (task queues ${prefix}-*)…`);
  const native = await connectNativeTemporal(config);
  const workers = await createWorkers({ connection: native, db, logger, config, namespace: ctx.temporal.namespace, taskQueuePrefix: prefix });
  // Two apis on the same workers: the plain one, and one starting runs eagerly on the in-process worker (as `npm start`).
  // Counts the starts the server actually handed to the in-process worker (eagerlyStarted in its start response).
  const starts = { eager: 0, all: 0 };
  const rawStarts = { eager: 0, all: 0 };
  const counting = (count: { eager: number; all: number }): { workflow: WorkflowClientInterceptor[] } => ({
    workflow: [
      {
        async startWithDetails(input, next) {
          const out = await next(input);
          count.all++;
          if (out.eagerlyStarted) count.eager++;
          return out;
        },
      },
    ],
  });
  // The raw eager baseline's client: bare (no codec, no interceptors but the count) on the worker's own connection,
  // which is what lets the server hand the run's first task to that worker in its start response.
  const rawEagerClient = new Client({ connection: native, namespace: ctx.temporal.namespace, interceptors: counting(rawStarts) });
  const eagerClient = new Client({
    connection: native,
    namespace: ctx.temporal.namespace,
    dataConverter: temporalDataConverter(config),
    interceptors: counting(starts),
  });
  const ports: number[] = [];
  for (const extra of [{}, { eagerClient }])
    ports.push(await listenApp(ctx, { config, db, temporal: { connection: clientConnection, client }, logger, ...extra }));
  const rawActivities: AutomationRawActivities = {
    vendorCall: async (u) =>
      (await runIntegrationAction({ integration: 'proxy', params: { ...params, apiURL: u }, connection: NONE, idempotencyKey: 'raw', ssrfAllowlist: allow }))
        .data,
  };
  const rawQueue = `${prefix}-raw`;
  workers.push(
    await Worker.create({
      connection: native,
      namespace: ctx.temporal.namespace,
      taskQueue: rawQueue,
      workflowsPath: require.resolve('./workflows/automation-raw'),
      activities: rawActivities,
    }),
  );
  runWorkers(ctx, workers, () => native.close());

  const direct = () => runIntegrationAction({ integration: 'proxy', params, connection: NONE, idempotencyKey: 'direct', ssrfAllowlist: allow });
  // Through the benches' undici pool (one keep-alive connection per api), not fetch(): in this process the client's own
  // cost is in the latency, and fetch's adds about 0.8 ms a call.
  const viaEndpoint = (port: number) => {
    const post = jsonPoster(port, 1, ctx.defer);
    const request = JSON.stringify({ automationType: 'proxy', nodeParams: { params } });
    return async (): Promise<string> => {
      const res = await post('/api/automation/execute', request, { 'x-key': key });
      const body = JSON.parse(res.text) as { success?: boolean; error?: string; metadata?: { workflowId?: string } };
      if (res.status !== 200 || !body.success || !body.metadata?.workflowId) throw new Error(`endpoint answered ${res.status}: ${body.error}`);
      return body.metadata.workflowId;
    };
  };
  // The end of the run an endpoint call started (its last workflow task completed), awaited outside the call's latency.
  const runEnded = { settle: (workflowId: string) => client.workflow.getHandle(workflowId).result() };
  let seq = 0;
  const rawWorkflow = () => rawClient.workflow.execute('rawAutomationCall', { taskQueue: rawQueue, workflowId: `${rawQueue}-${++seq}`, args: [url] });
  const rawEager = () =>
    rawEagerClient.workflow.execute('rawLocalAutomationCall', {
      taskQueue: rawQueue,
      workflowId: `${rawQueue}-${++seq}`,
      args: [url],
      requestEagerStart: true,
    });

  ctx.say('Warming up…');
  const plain = viaEndpoint(ports[0]!);
  const eager = viaEndpoint(ports[1]!);
  for (const op of [direct, plain, eager, rawWorkflow, rawEager]) await measure<unknown>(20, 1, op);
  const sides = {
    direct: [] as Measurement[],
    endpoint: [] as Measurement[],
    eager: [] as Measurement[],
    eagerBackToBack: [] as Measurement[],
    raw: [] as Measurement[],
    rawEager: [] as Measurement[],
  };
  for (let r = 0; r < rounds; r++) {
    ctx.say(`Round ${r + 1}/${rounds}: ${calls} calls per side, one at a time…`);
    sides.direct.push(await measure(calls, 1, direct));
    sides.endpoint.push(await measure(calls, 1, plain, runEnded));
    sides.eager.push(await measure(calls, 1, eager, runEnded));
    sides.eagerBackToBack.push(await measure(calls, 1, eager));
    sides.raw.push(await measure(calls, 1, rawWorkflow));
    sides.rawEager.push(await measure(calls, 1, rawEager));
  }
  const d = summarize(sides.direct);
  const e = summarize(sides.endpoint);
  const g = summarize(sides.eager);
  const w = summarize(sides.raw);
  const b = summarize(sides.rawEager);
  const g2 = summarize(sides.eagerBackToBack);
  // P4: the eager endpoint against the raw eager start, p50 within 1.25x and p99 within 1.5x (ratios >= 1: met).
  const p50Ratio = (1.25 * b.p50) / g.p50;
  const p99Ratio = (1.5 * b.p99) / g.p99;
  const overhead = (side: Measurement[], p: 'p50' | 'p99') => median(side.map((m, i) => m[p] - sides.direct[i]![p]));
  const overheadP50 = overhead(sides.eager, 'p50');
  const overheadP99 = overhead(sides.eager, 'p99');
  const figures: Figure[] = [
    ...measurementFigures('adapter called directly', d),
    ...measurementFigures('POST /api/automation/execute, api without a worker', e),
    ...measurementFigures('POST /api/automation/execute, eager start on the in-process worker', g),
    ...measurementFigures('the same, called back to back (not waiting for the previous run to end)', g2),
    ...measurementFigures('bare workflow, one ordinary activity', w),
    ...measurementFigures('raw eager start, one local activity (P4 baseline)', b),
    ['eager endpoint p50 / raw eager p50 (goal <= 1.25)', g.p50 / b.p50, 'x'],
    ['eager endpoint p99 / raw eager p99 (goal <= 1.5)', g.p99 / b.p99, 'x'],
    ['back to back: eager endpoint p50 / raw eager p50', g2.p50 / b.p50, 'x'],
    ['back to back: eager endpoint p99 / raw eager p99', g2.p99 / b.p99, 'x'],
    ['ratio p99: 1.5 x raw eager p99 / eager endpoint p99 (>= 1: met)', p99Ratio, ''],
    ['raw eager: runs started eagerly', `${rawStarts.eager}/${rawStarts.all}`, ''],
    ['api without a worker: overhead over the direct call p50', overhead(sides.endpoint, 'p50'), 'ms'],
    ['api without a worker: overhead over the direct call p99', overhead(sides.endpoint, 'p99'), 'ms'],
    ['eager start: overhead over the direct call p50', overheadP50, 'ms'],
    ['eager start: overhead over the direct call p99', overheadP99, 'ms'],
    ['eager api: runs started eagerly on the in-process worker', `${starts.eager}/${starts.all}`, ''],
  ];
  // P4 for OAuth integrations: what the first call after a token nears expiry pays for the refresh.
  ctx.say('Measuring the OAuth refresh a first call pays…');
  figures.push(...(await measureRefresh(db, ws.id, allow, Math.min(calls, 50))));
  const all = [e, g, g2, d, w, b];
  if (all.some((m) => m.errors)) figures.push(['errors (first)', String(all.find((m) => m.firstError)?.firstError), '']);
  return report('automation', figures, {
    value: p50Ratio,
    what: "1.25 x the raw eager start's p50 over the eager endpoint's p50 (>= 1: goal met)",
  });
}
