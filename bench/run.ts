// The benchmark runner: `npm run bench -- <name> [--flags]` runs bench/<name>.ts; `npm run bench -- --list` lists them.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, defaultDataDir } from '../src/config';
import { portOpen } from '../src/devstack/net';
import { defaultPostgresPort, startPrivatePostgres } from '../src/devstack/postgres';
import { resolveTemporalCli } from '../src/devstack/temporal-cli';
import { startTemporalDevServer } from '../src/devstack/temporal-server';
import { Flags, parseArgs, type BenchContext, type Benchmark } from './lib';

const NOT_BENCHMARKS = new Set(['run', 'lib']);
const t0 = Date.now();
const say = (line: string) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}\n`);

/** Loads bench/<name>.ts, checking it exports description and run. */
function load(name: string): Benchmark {
  const mod = require(path.join(__dirname, name)) as Partial<Benchmark>;
  if (typeof mod.run !== 'function' || typeof mod.description !== 'string') {
    throw new Error(`bench/${name}.ts must export run(ctx) and description`);
  }
  return mod as Benchmark;
}

/** Names of the benchmarks: bench/*.ts other than the runner and the helpers. */
function benchmarkNames(): string[] {
  return readdirSync(__dirname)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -3))
    .filter((n) => !NOT_BENCHMARKS.has(n))
    .sort();
}

/** A TCP port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The running dev server at TEMPORAL_ADDRESS, else a headless one of our own on a free port (WAL SQLite in a temp dir). */
async function provideTemporal(defer: BenchContext['defer']): Promise<BenchContext['temporal']> {
  const config = loadConfig();
  const [host = '127.0.0.1', port = '7233'] = config.TEMPORAL_ADDRESS.split(':');
  if (await portOpen(host, Number(port))) {
    say(`Using the Temporal server at ${config.TEMPORAL_ADDRESS}.`);
    return { address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE, ownServer: false };
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
  return { address: server.address, namespace: config.TEMPORAL_NAMESPACE, ownServer: true };
}

/** DATABASE_URL, else the private cluster in .data on port 5433 with database switchboard_bench; started once, on demand. */
function lazyDatabaseUrl(defer: BenchContext['defer']): () => Promise<string> {
  let url: Promise<string> | undefined;
  return () =>
    (url ??= (async () => {
      const fromEnv = loadConfig().DATABASE_URL;
      if (fromEnv) return fromEnv;
      const pg = await startPrivatePostgres({ dataDir: defaultDataDir, port: defaultPostgresPort, database: 'switchboard_bench', say });
      defer(() => pg.stop());
      return pg.url;
    })());
}

async function main(argv: string[]): Promise<number> {
  const { positionals, flags } = parseArgs(argv);
  if (flags.has('list') || positionals.length === 0) {
    if (!flags.has('list')) say('usage: npm run bench -- <name> [--flags] | --list');
    for (const name of benchmarkNames()) {
      const bench = load(name);
      process.stdout.write(`${name.padEnd(24)} ${bench.description}\n`);
      for (const [flag, help] of Object.entries(bench.options ?? {})) process.stdout.write(`${''.padEnd(26)}--${flag.padEnd(14)} ${help}\n`);
    }
    return positionals.length === 0 && !flags.has('list') ? 2 : 0;
  }
  const name = positionals[0]!;
  if (!benchmarkNames().includes(name)) {
    say(`No benchmark named ${JSON.stringify(name)}; try --list.`);
    return 2;
  }
  const bench = load(name);
  const unknown = [...flags.keys()].filter((f) => !Object.hasOwn(bench.options ?? {}, f));
  if (unknown.length) {
    say(`${name} takes no ${unknown.map((f) => `--${f}`).join(', ')}; see --list.`);
    return 2;
  }
  const cleanups: (() => Promise<void> | void)[] = [];
  const defer: BenchContext['defer'] = (fn) => void cleanups.push(fn);
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const fn of cleanups.reverse()) {
        await Promise.resolve()
          .then(fn)
          .catch((err: Error) => say(`cleanup failed: ${err.message}`));
      }
    })());
  // Ctrl-C or kill: stop what we started (worker, server, cluster) before going.
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = signal;
    say(`${signal}: cleaning up…`);
    void cleanup().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  let code = 0;
  try {
    const ctx: BenchContext = {
      temporal: await provideTemporal(defer),
      databaseUrl: lazyDatabaseUrl(defer),
      flags: new Flags(flags),
      say: (line) => void (cleaning || say(line)),
      defer,
    };
    await bench.run(ctx);
  } catch (err) {
    if (!interrupted) say(`bench ${name} could not run: ${(err as Error).stack ?? String(err)}`);
    code = 1;
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
  return code;
}

void main(process.argv.slice(2)).then((code) => {
  // A failed benchmark may leave promises running against closed connections: don't wait for them.
  if (code !== 0) process.exit(code);
  // Everything is closed by now; if some handle still holds the loop open, say so rather than hang.
  setTimeout(() => {
    say('bench: handles still open 10 s after cleanup; exiting.');
    process.exit(0);
  }, 10_000).unref();
});
