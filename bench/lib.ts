// Shared measuring and reporting helpers for bench/*.ts (see /work/shared/design/quality-figures.md).
import { performance } from 'node:perf_hooks';
import type { TemporalConnectOptions } from '../src/temporal/connection-config';

/** What the runner (bench/run.ts) hands to a benchmark's run(). */
export interface BenchContext {
  /** The Temporal frontend to use: a running dev server, or one the runner started for this run. */
  /** The server, and the connection options of Temporal's settings (TLS, API key) for it, as the api and worker use them. */
  temporal: { address: string; namespace: string; ownServer: boolean; connect: TemporalConnectOptions };
  /** A Postgres URL, provided on first call (DATABASE_URL, else the private cluster in .data on port 5433). */
  databaseUrl(): Promise<string>;
  flags: Flags;
  /** A progress line on stderr (stdout holds only the figures and the ratio line). */
  say(line: string): void;
  /** Registers a cleanup the runner awaits at the end (last registered runs first), even on failure. */
  defer(cleanup: () => Promise<void> | void): void;
}

/** A benchmark module: bench/<name>.ts (a module there without run and description is a helper). */
export interface Benchmark {
  description: string;
  /** The flags it reads, name → help; the runner rejects any other flag before running. */
  options?: Record<string, string>;
  /** The least ratio that meets its goal (quality-figures.md); none for a baseline. */
  goal?: number;
  /** Runs, prints its figures and returns its ratio (the number of the last line). */
  run(ctx: BenchContext): Promise<number>;
}

/** Command-line flags, as node:util parseArgs read them. */
export class Flags {
  constructor(private readonly values: Record<string, string | undefined>) {}

  /** A positive integer flag. */
  int(name: string, fallback: number): number {
    const raw = this.values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got ${raw})`);
    return n;
  }

  /** A string flag. */
  str(name: string, fallback: string): string {
    return this.values[name] ?? fallback;
  }
}

/** One benchmark's outcome for the `all` table: its ratio, or why it could not run. */
export interface Outcome {
  name: string;
  goal?: number;
  ratio?: number;
  error?: string;
}

/** The table `npm run bench -- all` ends with: name, ratio, goal, met. */
export function outcomeTable(outcomes: Outcome[]): string {
  const rows = [
    ['name', 'ratio', 'goal', 'met'],
    ...outcomes.map((o) => [
      o.name,
      o.ratio === undefined ? `failed: ${o.error ?? 'no ratio'}` : o.ratio.toFixed(3),
      o.goal === undefined ? '-' : `>= ${o.goal.toFixed(2)}`,
      o.goal === undefined ? '-' : o.ratio !== undefined && o.ratio >= o.goal ? 'yes' : 'no',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

/** Throughput and latency (ms) of a batch of operations. */
export interface Measurement {
  ops: number;
  errors: number;
  firstError?: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Every success's latency (ms), ascending: lets measurements of one side be merged exactly (merge()). */
  latencies?: number[];
}

/** Nearest-rank percentile (p in 0..100) of ascending-sorted values; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Median of some numbers; NaN when empty. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Runs op(0..n-1) with at most `concurrency` in flight; throughput counts successes, latencies only successes. With
 * settle, each success's lane then waits for settle(its result) before its next op, outside the op's latency: for an
 * op that answers before the work it started has ended (a run that goes on after the answer), so that the next op
 * starts on a machine where that work is done, as it would after an op that waits for it.
 */
export async function measure<T>(
  n: number,
  concurrency: number,
  op: (i: number) => Promise<T>,
  opts: { settle?: (result: T) => Promise<unknown> } = {},
): Promise<Measurement> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const t0 = performance.now();
      try {
        const result = await op(i);
        latencies.push(performance.now() - t0);
        if (opts.settle) await opts.settle(result);
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ops: n,
    errors,
    firstError,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    latencies,
  };
}

/** Measurements of one side taken apart, as one: counts and time added up, percentiles over every latency. */
export function merge(ms: Measurement[]): Measurement {
  const latencies = ms.flatMap((m) => m.latencies ?? []).sort((a, b) => a - b);
  const seconds = ms.reduce((n, m) => n + m.seconds, 0);
  return {
    ops: ms.reduce((n, m) => n + m.ops, 0),
    errors: ms.reduce((n, m) => n + m.errors, 0),
    firstError: ms.find((m) => m.firstError)?.firstError,
    seconds,
    perSecond: ms.reduce((n, m) => n + m.ops - m.errors, 0) / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    latencies,
  };
}

/**
 * Like alternate(), but each round runs both sides twice, in the order A B B A (B A A B in odd rounds), and scores
 * each side on its two runs merged (pass each run half a round's work). alternate() runs A B, so a machine that gets
 * busier (or quieter) during a round tilts that round's ratio against whichever side ran second; here a drift that is
 * steady over a round hits both sides alike and cancels within the round, not only across rounds.
 */
export async function alternateBalanced(
  rounds: number,
  baseline: (round: number) => Promise<Measurement>,
  candidate: (round: number) => Promise<Measurement>,
  score: (m: Measurement) => number,
): Promise<{ rounds: Round<Measurement>[]; medianRatio: number }> {
  const out: Round<Measurement>[] = [];
  for (let r = 0; r < rounds; r++) {
    const [first, second] = r % 2 === 0 ? [baseline, candidate] : [candidate, baseline];
    const a1 = await first(r);
    const b1 = await second(r);
    const b2 = await second(r);
    const a2 = await first(r);
    const [b, c] = r % 2 === 0 ? [merge([a1, a2]), merge([b1, b2])] : [merge([b1, b2]), merge([a1, a2])];
    out.push({ baseline: b, candidate: c, ratio: score(c) / score(b) });
  }
  return { rounds: out, medianRatio: median(out.map((r) => r.ratio)) };
}

/** One round of alternate(): both measurements and candidate score over baseline score. */
export interface Round<T> {
  baseline: T;
  candidate: T;
  ratio: number;
}

/**
 * Alternates baseline and candidate for `rounds` rounds (swapping which goes first each round, so drift hits
 * both alike); ratio = score(candidate) / score(baseline) per round, and the median of those.
 */
export async function alternate<T>(
  rounds: number,
  baseline: (round: number) => Promise<T>,
  candidate: (round: number) => Promise<T>,
  score: (m: T) => number,
): Promise<{ rounds: Round<T>[]; medianRatio: number }> {
  const out: Round<T>[] = [];
  for (let r = 0; r < rounds; r++) {
    let b: T;
    let c: T;
    if (r % 2 === 0) {
      b = await baseline(r);
      c = await candidate(r);
    } else {
      c = await candidate(r);
      b = await baseline(r);
    }
    out.push({ baseline: b, candidate: c, ratio: score(c) / score(b) });
  }
  return { rounds: out, medianRatio: median(out.map((r) => r.ratio)) };
}

/** One row of the printed table: what, value, unit. */
export type Figure = [what: string, value: number | string, unit?: string];

/** Rows for a measurement: throughput, p50/p95/p99 and errors, each labelled `label …`. */
export function measurementFigures(label: string, m: Measurement): Figure[] {
  const rows: Figure[] = [
    [`${label}: throughput`, m.perSecond, '/s'],
    [`${label}: latency p50`, m.p50, 'ms'],
    [`${label}: latency p95`, m.p95, 'ms'],
    [`${label}: latency p99`, m.p99, 'ms'],
  ];
  if (m.errors) rows.push([`${label}: errors (first: ${m.firstError})`, m.errors, `of ${m.ops}`]);
  return rows;
}

const fmt = (v: number | string) => (typeof v === 'string' ? v : Number.isFinite(v) ? v.toFixed(v >= 100 ? 1 : 2) : String(v));

/** Prints the figures as a table on stdout, then, last, the line `ratio <name>: <number> (<what over what>)`; returns the ratio. */
export function report(name: string, figures: Figure[], ratio: { value: number; what: string }): number {
  const width = Math.max(6, ...figures.map(([what]) => what.length));
  const valueWidth = Math.max(5, ...figures.map(([, v]) => fmt(v).length));
  const lines = [`${'figure'.padEnd(width)}  ${'value'.padStart(valueWidth)}  unit`];
  for (const [what, value, unit] of figures) lines.push(`${what.padEnd(width)}  ${fmt(value).padStart(valueWidth)}  ${unit ?? ''}`.trimEnd());
  lines.push(`ratio ${name}: ${ratio.value.toFixed(3)} (${ratio.what})`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return ratio.value;
}

/** Several rounds' measurements as one: counts added up, rates and percentiles as the median of the rounds. */
export function summarize(ms: Measurement[]): Measurement {
  return {
    ops: ms.reduce((n, m) => n + m.ops, 0),
    errors: ms.reduce((n, m) => n + m.errors, 0),
    firstError: ms.find((m) => m.firstError)?.firstError,
    seconds: ms.reduce((n, m) => n + m.seconds, 0),
    perSecond: median(ms.map((m) => m.perSecond)),
    p50: median(ms.map((m) => m.p50)),
    p95: median(ms.map((m) => m.p95)),
    p99: median(ms.map((m) => m.p99)),
  };
}
