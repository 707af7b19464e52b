import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { API_NODE_FLAGS } from '../src/core/node-flags';
import type { BenchContext } from './lib';

/**
 * Runs a benchmark's server script (TypeScript) in a child process, so load generator and server do not share a
 * core, and resolves with the first IPC message it sends (its ports) and a reader of its CPU time. Disconnecting at the end lets the child exit
 * on its own (and write its CPU profile when profileDir is set); it is killed only if it does not.
 */
export async function forkServer<M>(
  ctx: BenchContext,
  script: string,
  env: NodeJS.ProcessEnv,
  profileDir = '',
): Promise<{
  message: M;
  pid: number;
  cpu: () => Promise<number>;
  usage: () => Promise<ChildUsage>;
  memory: () => Promise<ChildMemory>;
  heapSnapshot: (file: string) => Promise<void>;
}> {
  const child = fork(path.join(__dirname, '..', 'bin', 'run-ts.js'), [script], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // The api's production V8 flags (the Dockerfile's), so that the api measured is the api that runs.
    execArgv: ['--expose-gc', ...API_NODE_FLAGS, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [])],
    // The rate limiter counts every request (its cost is part of what is measured) but never refuses one. Production
    // mode wants its secrets set: throwaway ones per run (a benchmark's data is never read again).
    env: {
      ...process.env,
      NODE_ENV: 'production',
      RATE_LIMIT_PER_KEY: '1000000000',
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      WEBCHAT_SESSIONS_PER_ADDRESS: '1000000000',
      // P6 holds 10,000 idle chat sockets from one address.
      WEBCHAT_SOCKETS_PER_ADDRESS: '0',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      TWILIO_AUTH_TOKEN: randomBytes(24).toString('hex'),
      ...env,
    },
  });
  ctx.defer(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.connected) child.disconnect();
    const timer = setTimeout(() => child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) =>
      resolve({
        message: m as M,
        pid: child.pid!,
        cpu: () => childCpu(child),
        usage: () => childUsage(child),
        memory: () => childMemory(child),
        heapSnapshot: (file) => childHeapSnapshot(child, file),
      }),
    );
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited (${code})`)));
  });
}

/**
 * The api alone (bench/enroll/server.ts: no workers) in a child process, on the bench's database and the given Temporal
 * server, its task queues under prefix; env adds settings (e.g. a cluster's TLS).
 */
export function forkApi(
  ctx: BenchContext,
  o: { databaseUrl: string; temporal: BenchContext['temporal']; prefix: string; logLevel?: string; env?: NodeJS.ProcessEnv; profileDir?: string },
) {
  const env = {
    BENCH_DATABASE_URL: o.databaseUrl,
    BENCH_TEMPORAL_ADDRESS: o.temporal.address,
    ...o.env,
    TEMPORAL_NAMESPACE: o.temporal.namespace,
    TEMPORAL_TASK_QUEUE_PREFIX: o.prefix,
    LOG_LEVEL: o.logLevel ?? 'warn',
  };
  return forkServer<{ port: number }>(ctx, path.join(__dirname, 'enroll', 'server.ts'), env, o.profileDir);
}

/** An answer the server script sends over IPC: its CPU (and statements), memory, or a written heap snapshot. */
interface Reply {
  cpu?: NodeJS.CpuUsage;
  statements?: number;
  memory?: NodeJS.MemoryUsage;
  sockets?: number;
  snapshot?: string;
}

/** Sends `request` to the child and resolves with the first reply `pick` makes something of (other replies pass by). */
function ask<T>(child: ChildProcess, request: Serializable, pick: (reply: Reply) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      const value = pick(m as Reply);
      if (value === undefined) return;
      child.off('message', on);
      resolve(value);
    };
    child.on('message', on);
    child.send(request);
  });
}

/** A child's CPU time so far (user + system, µs) and the Postgres statements it has sent, when its script counts them (else 0). */
export interface ChildUsage {
  cpu: number;
  statements: number;
}

/** Both of the child's counters, from one answer to the IPC message 'cpu'. */
const childUsage = (child: ChildProcess) => ask<ChildUsage>(child, 'cpu', (r) => r.cpu && { cpu: r.cpu.user + r.cpu.system, statements: r.statements ?? 0 });

/** The child's CPU time so far (µs). */
const childCpu = (child: ChildProcess) => childUsage(child).then((u) => u.cpu);

/** A child's memory, and the chat sockets it holds when its script counts them. */
export type ChildMemory = NodeJS.MemoryUsage & { sockets?: number };

/** The child's memory (after a GC when it runs with --expose-gc); the server script answers the IPC message 'memory'. */
const childMemory = (child: ChildProcess) => ask<ChildMemory>(child, 'memory', (r) => r.memory && { ...r.memory, sockets: r.sockets });

/** Writes a V8 heap snapshot of the child into file (after a GC); the server script answers {snapshot: file}. */
const childHeapSnapshot = (child: ChildProcess, file: string) =>
  ask(child, { snapshot: file }, (r) => (r.snapshot === file ? true : undefined)).then(() => undefined);
