// The benchmark runner: `npm run bench -- <name> [--flags]` runs bench/<name>.ts, `npm run bench -- all` runs each in
// turn and ends with one table, `npm run bench -- --list` lists them.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir, loadConfig, temporalEnv } from '../src/core/config';
import { freePort, portOpen } from '../src/devstack/net';
import { startPrivatePostgres } from '../src/devstack/postgres';
import { resolveTemporalCli } from '../src/devstack/temporal-cli';
import { temporalConnectOptions } from '../src/temporal/connection-config';
import { startTemporalDevServer } from '../src/devstack/temporal-server';
import { Flags, outcomeTable, type BenchContext, type Benchmark, type Outcome } from './lib';
import { quietTemporalRuntime } from './temporal-raw';

const USAGE = 'usage: npm run bench -- <name> [--flags] | all | --list';
const t0 = Date.now();
const say = (line: string) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}\n`);

/** A mistake on the command line: said in one line, exit code 2, no stack trace. */
class UsageError extends Error {}

/** The benchmarks by name: bench/*.ts exporting run and description (other modules there are helpers). */
function benchmarks(): Map<string, Benchmark> {
  const found = new Map<string, Benchmark>();
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'run.ts');
  for (const file of files.sort()) {
    const mod = require(path.join(__dirname, file)) as Partial<Benchmark>;
    if (typeof mod.run === 'function' && typeof mod.description === 'string') found.set(file.slice(0, -3), mod as Benchmark);
  }
  return found;
}

function printList(all: Map<string, Benchmark>): void {
  for (const [name, bench] of all) {
    process.stdout.write(`${name.padEnd(24)} ${bench.description}\n`);
    for (const [flag, help] of Object.entries(bench.options ?? {})) process.stdout.write(`${''.padEnd(26)}--${flag.padEnd(14)} ${help}\n`);
  }
  process.stdout.write(`${'all'.padEnd(24)} each of the above in turn at its defaults, then one table: name, ratio, goal, met\n`);
}

/** The running dev server at TEMPORAL_ADDRESS, else a headless one of our own on a free port (WAL SQLite in a temp dir). */
async function provideTemporal(defer: BenchContext['defer']): Promise<BenchContext['temporal']> {
  const config = loadConfig();
  const [host = '127.0.0.1', port = '7233'] = config.TEMPORAL_ADDRESS.split(':');
  if (await portOpen(host, Number(port))) {
    say(`Using the Temporal server at ${config.TEMPORAL_ADDRESS}.`);
    return { address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE, ownServer: false, connect: temporalConnectOptions(temporalEnv(config)) };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
  defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = await resolveTemporalCli({ say });
  const server = await startTemporalDevServer({
    cli,
    host: '127.0.0.1',
    port: await freePort(),
    uiPort: 0,
    namespace: config.TEMPORAL_NAMESPACE,
    dataDir,
    headless: true,
  });
  defer(() => server.stop());
  say(`Nothing listens at ${config.TEMPORAL_ADDRESS}: started a dev server at ${server.address} (WAL SQLite in ${dataDir}).`);
  return { address: server.address, namespace: config.TEMPORAL_NAMESPACE, ownServer: true, connect: { address: server.address } };
}

/** DATABASE_URL, else the private cluster in .data on DEV_POSTGRES_PORT with database switchboard_bench; started once, on demand. */
function lazyDatabaseUrl(defer: BenchContext['defer']): () => Promise<string> {
  let url: Promise<string> | undefined;
  return () =>
    (url ??= (async () => {
      const config = loadConfig();
      if (config.DATABASE_URL) return config.DATABASE_URL;
      const pg = await startPrivatePostgres({ dataDir: defaultDataDir, port: config.DEV_POSTGRES_PORT, database: 'switchboard_bench', say });
      defer(() => pg.stop());
      return pg.url;
    })());
}

/** Cleanups registered by one run, awaited last-first once (also on Ctrl-C). */
function cleanups() {
  const fns: (() => Promise<void> | void)[] = [];
  let cleaning: Promise<void> | undefined;
  return {
    defer: (fn: () => Promise<void> | void) => void fns.push(fn),
    get cleaning() {
      return cleaning !== undefined;
    },
    run: () =>
      (cleaning ??= (async () => {
        for (const fn of fns.reverse()) {
          await Promise.resolve()
            .then(fn)
            .catch((err: Error) => say(`cleanup failed: ${err.message}`));
        }
      })()),
  };
}

/** Runs one benchmark with its own stack and cleanups; its ratio, or the error that stopped it. */
async function runOne(name: string, bench: Benchmark, flags: Flags): Promise<Outcome> {
  const c = cleanups();
  // Ctrl-C or kill: stop what we started (worker, server, cluster) before going.
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    say(`${signal}: cleaning up…`);
    void c.run().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const ctx: BenchContext = {
      temporal: await provideTemporal(c.defer),
      databaseUrl: lazyDatabaseUrl(c.defer),
      flags,
      say: (line) => void (c.cleaning || say(line)),
      defer: c.defer,
    };
    return { name, goal: bench.goal, ratio: await bench.run(ctx) };
  } catch (err) {
    if (!interrupted) say(`bench ${name} could not run: ${(err as Error).stack ?? String(err)}`);
    return { name, goal: bench.goal, error: (err as Error).message.split('\n')[0] };
  } finally {
    await c.run();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

/** Reads the flags a benchmark declares (values required); any other flag is a UsageError. */
function flagsFor(name: string, bench: Benchmark, args: string[]): Flags {
  const options = Object.fromEntries(Object.keys(bench.options ?? {}).map((flag) => [flag, { type: 'string' as const }]));
  try {
    return new Flags(parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<string, string | undefined>);
  } catch (err) {
    throw new UsageError(`${name}: ${(err as Error).message}; see --list.`);
  }
}

async function main(argv: string[]): Promise<number> {
  // Every benchmark's in-process workers log warnings only: the SDK's default logs each worker state change.
  quietTemporalRuntime();
  const [first, ...rest] = argv;
  if (first === '--list' || first === '--help' || first === '-h') {
    if (rest.length) throw new UsageError(`${first} takes nothing after it`);
    printList(benchmarks());
    return 0;
  }
  if (first === undefined || first.startsWith('-')) throw new UsageError(first === undefined ? 'name a benchmark (see --list)' : `unknown option ${first}`);
  const all = benchmarks();
  if (first === 'all') {
    if (rest.length) throw new UsageError('all runs each benchmark at its defaults and takes no flags');
    const outcomes: Outcome[] = [];
    for (const [name, bench] of all) {
      say(`— ${name} —`);
      outcomes.push(await runOne(name, bench, new Flags({})));
    }
    process.stdout.write(`\n${outcomeTable(outcomes)}`);
    return outcomes.some((o) => o.ratio === undefined) ? 1 : 0;
  }
  const bench = all.get(first);
  if (!bench) throw new UsageError(`no benchmark named ${JSON.stringify(first)}; try --list`);
  const outcome = await runOne(first, bench, flagsFor(first, bench, rest));
  return outcome.ratio === undefined ? 1 : 0;
}

void main(process.argv.slice(2))
  .catch((err) => {
    if (!(err instanceof UsageError)) throw err;
    say(`${err.message}\n${USAGE}`);
    return 2;
  })
  .then((code) => {
    // A failed benchmark may leave promises running against closed connections: don't wait for them.
    if (code !== 0) process.exit(code);
    // Everything is closed by now; if some handle still holds the loop open, say so rather than hang.
    setTimeout(() => {
      say('bench: handles still open 10 s after cleanup; exiting.');
      process.exit(0);
    }, 10_000).unref();
  });
