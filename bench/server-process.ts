import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
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
): Promise<{ message: M; pid: number; cpu: () => Promise<number>; statements: () => Promise<number>; memory: () => Promise<ChildMemory>; heapSnapshot: (file: string) => Promise<void> }> {
  const child = fork(path.join(__dirname, '..', 'bin', 'run-ts.js'), [script], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--expose-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [])],
    // The rate limiter counts every request (its cost is part of what is measured) but never refuses one. Production
    // mode wants its secrets set: throwaway ones per run (a benchmark's data is never read again).
    env: {
      ...process.env,
      NODE_ENV: 'production',
      RATE_LIMIT_PER_KEY: '1000000000',
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      JWT_SECRET: randomBytes(32).toString('hex'),
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
    child.once('message', (m) => resolve({ message: m as M, pid: child.pid!, cpu: () => childCpu(child), statements: () => childStatements(child), memory: () => childMemory(child), heapSnapshot: (file) => childHeapSnapshot(child, file) }));
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited (${code})`)));
  });
}

/** The child's CPU time so far (user + system, µs); the server script answers the IPC message 'cpu'. */
function childCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const { user, system } = (m as { cpu: NodeJS.CpuUsage }).cpu;
      resolve(user + system);
    });
    child.send('cpu');
  });
}

/** The Postgres statements the child has sent so far, when its script counts them (answered with 'cpu'); else 0. */
function childStatements(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { statements?: number }).statements ?? 0));
    child.send('cpu');
  });
}

/** A child's memory, and the chat sockets it holds when its script counts them. */
export type ChildMemory = NodeJS.MemoryUsage & { sockets?: number };

/** The child's memory (after a GC when it runs with --expose-gc); the server script answers the IPC message 'memory'. */
function childMemory(child: ChildProcess): Promise<ChildMemory> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      const { memory, sockets } = m as { memory?: NodeJS.MemoryUsage; sockets?: number };
      if (!memory) return;
      child.off('message', on);
      resolve({ ...memory, sockets });
    };
    child.on('message', on);
    child.send('memory');
  });
}

/** Writes a V8 heap snapshot of the child into file (after a GC); the server script answers {snapshot: file}. */
function childHeapSnapshot(child: ChildProcess, file: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if ((m as { snapshot?: string }).snapshot !== file) return;
      child.off('message', on);
      resolve();
    };
    child.on('message', on);
    child.send({ snapshot: file });
  });
}
