// The raw Temporal baseline other benchmarks divide by: a bare client and a bare in-process worker, trivial workflows.
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { alternate, measure, measurementFigures, median, report, type BenchContext, type Figure, type Measurement } from './lib';
import type * as raw from './workflows/raw';

/** Shown by `npm run bench -- --list`. */
export const description = 'Raw Temporal baseline: bare client + in-process worker, trivial workflows (starts/s, completions/s, p50s)';

/** Flags, with their defaults (sized to finish in under 2 minutes on 2 cores). */
export const options = {
  starts: 'workflows started at --concurrency in flight (2000)',
  completions: 'workflows of each kind run to completion, split over the rounds (480)',
  rounds: 'alternated rounds of one-activity and three-activity workflows (3)',
  concurrency: 'operations in flight (32)',
  serial: 'samples for the one-at-a-time figures (50)',
  warmup: 'untimed workflows of each kind first (32)',
};

type RawWorkflow = Extract<keyof typeof raw, `raw${string}`>;

const activities: raw.RawActivities = { async noop() {} };

/** Installs a Temporal Runtime that logs warnings only (the default logs every worker state change); once per process. */
export function quietTemporalRuntime(): void {
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('WARN') });
}

/** A bare client and a bare worker for bench/workflows/raw.ts on a task queue of its own. */
export interface RawTemporal {
  client: Client;
  taskQueue: string;
  /** Runs fn with the worker polling, then shuts the worker down. */
  runUntil<T>(fn: () => Promise<T>): Promise<T>;
  /** Starts one raw workflow (id unique within this task queue); resolves when the server accepted it. */
  start(type: RawWorkflow): Promise<string>;
  /** Starts one raw workflow and waits for its result. */
  execute(type: RawWorkflow): Promise<void>;
  close(): Promise<void>;
}

/** Connects a client and creates (not yet running) a worker for the raw workflows on a fresh task queue. */
export async function openRawTemporal(ctx: BenchContext): Promise<RawTemporal> {
  quietTemporalRuntime();
  const { namespace } = ctx.temporal;
  const taskQueue = `bench-raw-${Date.now().toString(36)}-${process.pid}`;
  const workerConnection = await NativeConnection.connect(ctx.temporal.connect);
  const clientConnection = await Connection.connect(ctx.temporal.connect).catch(async (err) => {
    await workerConnection.close();
    throw err;
  });
  const client = new Client({ connection: clientConnection, namespace });
  const closeConnections = () => Promise.all([clientConnection.close(), workerConnection.close()]).then(() => undefined);
  const worker = await Worker.create({
    connection: workerConnection,
    namespace,
    taskQueue,
    workflowsPath: require.resolve('./workflows/raw'),
    activities,
  }).catch(async (err) => {
    await closeConnections();
    throw err;
  });
  let running: Promise<unknown> | undefined;
  let seq = 0;
  const start = async (type: RawWorkflow) => {
    const workflowId = `${taskQueue}-${++seq}`;
    await client.workflow.start(type, { taskQueue, workflowId });
    return workflowId;
  };
  return {
    client,
    taskQueue,
    runUntil: (fn) => {
      const p = worker.runUntil(fn);
      running = p.catch(() => undefined);
      return p;
    },
    start,
    execute: async (type) => client.workflow.getHandle(await start(type)).result(),
    async close() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running; // the worker must let go of its connection before it can close
      await closeConnections();
    },
  };
}

/** Measures bare starts of rawEmpty; returns the figures and the started workflow ids. */
export async function measureStarts(rt: RawTemporal, n: number, concurrency: number): Promise<Measurement & { ids: string[] }> {
  const ids: string[] = [];
  const m = await measure(n, concurrency, async () => ids.push(await rt.start('rawEmpty')));
  return { ...m, ids };
}

/** Waits (untimed) until every given workflow has closed, so the next phase starts on an idle server. */
export async function awaitClosed(rt: RawTemporal, ids: string[]): Promise<void> {
  await measure(ids.length, 32, (i) => rt.client.workflow.getHandle(ids[i]!).result());
}

/** Measures start-and-await-result of one raw workflow type. */
export function measureCompletions(rt: RawTemporal, type: RawWorkflow, n: number, concurrency: number): Promise<Measurement> {
  return measure(n, concurrency, () => rt.execute(type));
}

/** Runs the baseline; the ratio is three-activity over one-activity completions/s (a self-consistency check). */
export async function run(ctx: BenchContext): Promise<number> {
  const starts = ctx.flags.int('starts', 2000);
  const completions = ctx.flags.int('completions', 480);
  const rounds = ctx.flags.int('rounds', 3);
  const concurrency = ctx.flags.int('concurrency', 32);
  const serial = ctx.flags.int('serial', 50);
  const warmup = ctx.flags.int('warmup', 32);
  const perRound = Math.max(1, Math.round(completions / rounds));

  const rt = await openRawTemporal(ctx);
  ctx.defer(() => rt.close());
  ctx.say(`Task queue ${rt.taskQueue} on ${ctx.temporal.address}; bundling the workflows and warming up…`);
  const figures: Figure[] = [];
  const all: Measurement[] = [];
  const ratio = await rt.runUntil(async () => {
    all.push(await measureCompletions(rt, 'rawOneActivity', warmup, concurrency));
    all.push(await measureCompletions(rt, 'rawThreeActivities', warmup, concurrency));

    ctx.say(`${starts} starts at ${concurrency} in flight…`);
    const s = await measureStarts(rt, starts, concurrency);
    ctx.say(`Waiting (untimed) for the ${s.ids.length} started workflows to finish…`);
    await awaitClosed(rt, s.ids);
    figures.push(...measurementFigures(`start rawEmpty, ${concurrency} in flight`, s));

    ctx.say(`${serial} starts and ${serial} one-activity workflows one at a time…`);
    const s1 = await measureStarts(rt, serial, 1);
    await awaitClosed(rt, s1.ids);
    figures.push([`start rawEmpty, one at a time: latency p50`, s1.p50, 'ms'], [`start rawEmpty, one at a time: latency p95`, s1.p95, 'ms']);
    const e1 = await measureCompletions(rt, 'rawOneActivity', serial, 1);
    figures.push([`one-activity end to end, one at a time: p50`, e1.p50, 'ms'], [`one-activity end to end, one at a time: p95`, e1.p95, 'ms']);

    ctx.say(`${rounds} alternated rounds of ${perRound} one-activity and ${perRound} three-activity workflows at ${concurrency} in flight…`);
    const alt = await alternate(
      rounds,
      () => measureCompletions(rt, 'rawOneActivity', perRound, concurrency),
      () => measureCompletions(rt, 'rawThreeActivities', perRound, concurrency),
      (m) => m.perSecond,
    );
    alt.rounds.forEach((r, i) => {
      figures.push(
        [`round ${i + 1}: one-activity completions, ${concurrency} in flight`, r.baseline.perSecond, '/s'],
        [`round ${i + 1}: three-activity completions, ${concurrency} in flight`, r.candidate.perSecond, '/s'],
        [`round ${i + 1}: three over one`, r.ratio, ''],
      );
    });
    for (const [label, pick] of [
      ['one-activity', (r: (typeof alt.rounds)[number]) => r.baseline],
      ['three-activity', (r: (typeof alt.rounds)[number]) => r.candidate],
    ] as const) {
      const ms = alt.rounds.map(pick);
      all.push(...ms);
      const med = (f: (m: Measurement) => number) => median(ms.map(f));
      const tag = `${label} completions, ${concurrency} in flight (median of rounds)`;
      figures.push(
        [`${tag}: throughput`, med((m) => m.perSecond), '/s'],
        [`${tag}: latency p50`, med((m) => m.p50), 'ms'],
        [`${tag}: latency p99`, med((m) => m.p99), 'ms'],
      );
    }
    all.push(s, s1, e1);
    return alt.medianRatio;
  });
  const errors = all.reduce((sum, m) => sum + m.errors, 0);
  const firstError = all.find((m) => m.firstError)?.firstError;
  figures.push([`errors${firstError ? ` (first: ${firstError})` : ''}`, String(errors), `of ${all.reduce((sum, m) => sum + m.ops, 0)} operations`]);
  if (!Number.isFinite(ratio)) throw new Error(`no workflow completed (${firstError ?? 'no error reported'})`);
  return report('temporal-raw', figures, {
    value: ratio,
    what: `three-activity over one-activity workflow completions/s at ${concurrency} in flight, median of ${rounds} alternated rounds`,
  });
}
