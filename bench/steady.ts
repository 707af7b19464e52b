// What the saturation benchmarks (enroll, calls) share: a warm-up that runs until the api is at steady state, its
// flags, and the CPU-per-operation figures of bench/cpu-accounting.ts.
import type { CpuLedger } from './cpu-accounting';
import { measure, type BenchContext, type Figure } from './lib';

/** The warm-up flags, as listed by `npm run bench -- --list`. */
export const warmupOptions = {
  warmup: 'warm-up chunk: requests per side, repeated until the api CPU per request moves less than 7% (default 400)',
  'warmup-min': 'at least this many warm-up chunks (default 5)',
  'warmup-chunks': 'at most this many warm-up chunks (default 12)',
};

/**
 * A fresh api process spends its first thousands of requests compiling (V8's optimising compiler runs on helper
 * threads: the api's CPU per enrollment fell from about 2.8 to 1.5 ms over the first 2,000 here), and throughput at
 * saturation is a steady-state figure. So both sides run in chunks, alternately, until the api's CPU per request
 * settles (two chunks within 7%, after at least the minimum).
 */
export async function warmUntilSteady(
  ctx: BenchContext,
  concurrency: number,
  sides: { raw: () => Promise<unknown>; api: () => Promise<unknown>; beforeApi?: (n: number) => void },
  apiCpu: () => Promise<number>,
): Promise<void> {
  const chunk = ctx.flags.int('warmup', 400);
  const max = ctx.flags.int('warmup-chunks', 12);
  const min = Math.min(max, ctx.flags.int('warmup-min', 5));
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

/** CPU per operation at saturation, by process (µs): where one side's cost goes. */
export function cpuFigures(side: string, ledger: CpuLedger): Figure[] {
  const c = ledger.perOp();
  return [[`${side}: CPU per op at saturation, temporal / postgres / api / bench = total`, `${[c.temporal, c.postgres, c.api, c.bench].map((v) => v.toFixed(0)).join(' / ')} = ${c.total.toFixed(0)}`, 'µs']];
}

/** The CPU a CPU-bound machine would allow: the raw side's total CPU per op over the api side's. */
export function cpuRatioFigure(raw: CpuLedger, api: CpuLedger, what: string): Figure {
  return [`CPU per raw start over CPU per ${what}, all processes (the ratio a CPU-bound machine allows)`, raw.perOp().total / api.perOp().total];
}
