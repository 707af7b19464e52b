// What the saturation benchmarks (enroll, calls) share: a warm-up that runs until the api is at steady state, its
// flags, the meters and CPU-per-operation figures of bench/cpu-accounting.ts, the two A B B A comparisons of a start
// through the api with a raw one, and the clean-up of the runs nobody polls.
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/pool';
import { CpuLedger, cpuMeter, postmasterOf } from './cpu-accounting';
import { alternateBalanced, measure, measurementFigures, median, summarize, type BenchContext, type Figure, type Measurement } from './lib';
import type { ChildUsage } from './server-process';

/** The warm-up flags, as listed by `npm run bench -- --list`. */
export const warmupOptions = {
  warmup: 'warm-up chunk: requests per side, repeated until the api CPU per request moves less than 7% (default 400)',
  'warmup-min': 'at least this many warm-up chunks (default 10)',
  'warmup-chunks': 'at most this many warm-up chunks (default 16)',
};

/**
 * A fresh api process spends its first thousands of requests compiling (V8's optimising compiler runs on helper
 * threads: the api's CPU per enrollment fell from about 2.8 to 1.5 ms over the first 2,000 here), and throughput at
 * saturation is a steady-state figure. So both sides run in chunks, alternately, until the api's CPU per request
 * settles (two chunks within 7%, after at least the minimum). The minimum is 4,000 requests: POST /v1/agent held at
 * 2.6–2.8 ms for 2,000 requests and more before it fell to about 1.5 (three runs here), and a minimum of 2,000 ended
 * the warm-up on that plateau, so that the first measured rounds were of an api still compiling.
 */
export async function warmUntilSteady(
  ctx: BenchContext,
  concurrency: number,
  sides: { raw: () => Promise<unknown>; api: () => Promise<unknown>; beforeApi?: (n: number) => void },
  apiCpu: () => Promise<number>,
): Promise<void> {
  const chunk = ctx.flags.int('warmup', 400);
  const max = ctx.flags.int('warmup-chunks', 16);
  const min = Math.min(max, ctx.flags.int('warmup-min', 10));
  ctx.say(`Warming up both sides in chunks of ${chunk} until the api's CPU per request settles (${min} to ${max} chunks)…`);
  let last = Infinity;
  for (let i = 1; i <= max; i++) {
    await measure(chunk, concurrency, sides.raw);
    sides.beforeApi?.(chunk);
    const before = await apiCpu();
    const m = await measure(chunk, concurrency, sides.api);
    if (m.errors) throw new Error(`warm-up: ${m.errors} api requests failed, first: ${m.firstError}`);
    const perOp = ((await apiCpu()) - before) / m.ops;
    ctx.say(`  warm-up chunk ${i}: api CPU ${perOp.toFixed(0)} µs per request`);
    if (i >= min && Math.abs(perOp - last) <= 0.07 * last) return;
    last = perOp;
  }
}

/**
 * What a saturation benchmark books besides throughput: every process's CPU per operation on each side (by /proc), and
 * per api measurement the api child's own CPU and the Postgres statements it sent, per operation.
 */
export class SaturationMeters {
  readonly raw: CpuLedger;
  readonly api: CpuLedger;
  private readonly apiCpu: number[] = [];
  private readonly apiStatements: number[] = [];

  private constructor(
    meter: ReturnType<typeof cpuMeter>,
    private readonly child: { usage: () => Promise<ChildUsage> },
  ) {
    this.raw = new CpuLedger(meter);
    this.api = new CpuLedger(meter);
  }

  /** Meters for the api child `child` and the Postgres server `db` is connected to. */
  static async of(db: Db, child: { pid: number; usage: () => Promise<ChildUsage> }): Promise<SaturationMeters> {
    const backend = await db.one<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return new SaturationMeters(cpuMeter({ apiPid: child.pid, postmasterPid: postmasterOf(backend!.pid) }), child);
  }

  /** Runs one api-side measurement, booking every process's CPU and the api child's CPU and statements per op. */
  async measureApi(work: () => Promise<Measurement>): Promise<Measurement> {
    const before = await this.child.usage();
    const m = await this.api.book(work);
    const after = await this.child.usage();
    this.apiCpu.push((after.cpu - before.cpu) / m.ops);
    this.apiStatements.push((after.statements - before.statements) / m.ops);
    return m;
  }

  /** Round `i`'s line of an A B B A run (two api measurements per round): both throughputs, their ratio, the api's CPU. */
  roundFigure(i: number, round: { baseline: Measurement; candidate: Measurement; ratio: number }, what: string, op: string): Figure {
    const cpu = ((this.apiCpu[2 * i] ?? 0) + (this.apiCpu[2 * i + 1] ?? 0)) / 2;
    return [
      `round ${i + 1}: ${what} (api CPU per ${op})`,
      `${round.baseline.perSecond.toFixed(1)} / ${round.candidate.perSecond.toFixed(1)} (${round.ratio.toFixed(3)}; ${cpu.toFixed(0)} µs)`,
      '/s',
    ];
  }

  /** The api's CPU and statements per op (medians), each side's CPU by process, and the ratio the CPU allows. */
  figures(rawName: string, apiName: string, op: string): Figure[] {
    return [
      [`api process CPU per ${op} at saturation (median of rounds)`, median(this.apiCpu), 'µs'],
      [`Postgres statements per ${op} at saturation (median of rounds; Temporal calls: 1)`, median(this.apiStatements)],
      ...cpuFigures(rawName, this.raw),
      ...cpuFigures(apiName, this.api),
      cpuRatioFigure(this.raw, this.api, op),
    ];
  }
}

/** CPU per operation at saturation, by process (µs): where one side's cost goes. */
function cpuFigures(side: string, ledger: CpuLedger): Figure[] {
  const c = ledger.perOp();
  return [
    [
      `${side}: CPU per op at saturation, temporal / postgres / api / bench = total`,
      `${[c.temporal, c.postgres, c.api, c.bench].map((v) => v.toFixed(0)).join(' / ')} = ${c.total.toFixed(0)}`,
      'µs',
    ],
  ];
}

/** The CPU a CPU-bound machine would allow: the raw side's total CPU per op over the api side's. */
function cpuRatioFigure(raw: CpuLedger, api: CpuLedger, what: string): Figure {
  return [`CPU per raw start over CPU per ${what}, all processes (the ratio a CPU-bound machine allows)`, raw.perOp().total / api.perOp().total];
}

/** The names a saturation benchmark's figures give its sides and its operation. */
export interface StartLabels {
  /** The raw side in full, e.g. "raw client.workflow.start(outboundCall)". */
  raw: string;
  /** The api side in full, e.g. "POST /v1/agent". */
  api: string;
  /** The api side in short, e.g. "sendtoworkflow". */
  apiShort: string;
  /** One operation, e.g. "call" (its plural with an s names the work in the progress lines). */
  op: string;
}

/**
 * The two comparisons of a start through the api with a raw start, after warmUntilSteady: throughput at `concurrency`
 * in flight, then latency one at a time, each in `rounds` A B B A rounds of `requests` (resp. `serial`) per side. The
 * figures: each saturation round, both sides' medians of rounds, the meters' CPU figures and the one-at-a-time gap.
 */
export async function compareStarts(
  ctx: BenchContext,
  o: {
    rounds: number;
    requests: number;
    serial: number;
    concurrency: number;
    meters: SaturationMeters;
    apiCpu: () => Promise<number>;
    raw: () => Promise<unknown>;
    api: () => Promise<unknown>;
    /** Called with the number of api requests about to run at saturation (e.g. to make their inputs first). */
    beforeApi?: (n: number) => void;
    labels: StartLabels;
  },
) {
  const { rounds, concurrency, meters, labels } = o;
  const half = Math.max(1, Math.floor(o.requests / 2));
  const halfSerial = Math.max(1, Math.floor(o.serial / 2));
  await warmUntilSteady(ctx, concurrency, { raw: o.raw, api: o.api, beforeApi: o.beforeApi }, o.apiCpu);
  ctx.say(`${rounds} alternating rounds (A B B A) of ${2 * half} ${labels.op}s per side at ${concurrency} in flight…`);
  const sat = await alternateBalanced(
    rounds,
    () => meters.raw.book(() => measure(half, concurrency, o.raw)),
    () => {
      o.beforeApi?.(half);
      return meters.measureApi(() => measure(half, concurrency, o.api));
    },
    (m) => m.perSecond,
  );
  ctx.say(`${rounds} alternating rounds (A B B A) of ${2 * halfSerial} ${labels.op}s per side one at a time…`);
  const one = await alternateBalanced(
    rounds,
    () => measure(halfSerial, 1, o.raw),
    () => measure(halfSerial, 1, o.api),
    (m) => m.p50,
  );
  const rawSat = summarize(sat.rounds.map((r) => r.baseline));
  const oursSat = summarize(sat.rounds.map((r) => r.candidate));
  const rawOne = summarize(one.rounds.map((r) => r.baseline));
  const oursOne = summarize(one.rounds.map((r) => r.candidate));
  const gap = oursOne.p50 - rawOne.p50;
  const figures: Figure[] = [
    ...sat.rounds.map((r, i) => meters.roundFigure(i, r, `raw start / ${labels.apiShort}, ${concurrency} in flight`, labels.op)),
    ...measurementFigures(`${labels.raw}, ${concurrency} in flight (median of rounds)`, rawSat),
    ...measurementFigures(`${labels.api}, ${concurrency} in flight (median of rounds)`, oursSat),
    ...measurementFigures(`${labels.raw}, one at a time (median of rounds)`, rawOne),
    ...measurementFigures(`${labels.api}, one at a time (median of rounds)`, oursOne),
    ...meters.figures('raw start', labels.apiShort, labels.op),
    ['one at a time: p50 over the raw start p50', gap, 'ms'],
  ];
  return { figures, ratio: sat.medianRatio, rawPerSecond: rawSat.perSecond, apiPerSecond: oursSat.perSecond, gap };
}

/** Terminates every run left on the bench's task queue (nothing polls it), at the end of benchmark `bench`. */
export async function terminateBenchRuns(ctx: BenchContext, client: Client, queue: string, namespace: string, bench: string): Promise<void> {
  await client.workflowService.startBatchOperation({
    namespace,
    jobId: randomUUID(),
    reason: `bench ${bench} cleanup`,
    visibilityQuery: `TaskQueue = '${queue}' AND ExecutionStatus = 'Running'`,
    terminationOperation: {},
  });
  ctx.say(`Asked Temporal to terminate the bench runs on ${queue}.`);
}
