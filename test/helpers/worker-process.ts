import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot, testEnv } from './env';
import { freePort } from './processes';
import type { TestApp } from './stack';

const started: ChildProcess[] = [];

/** Spawns a TypeScript file of the checkout as its own process on the app's database, Temporal and task queues. */
export function spawnOnApp(app: TestApp, file: string, extraEnv: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', file], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: app.config.DATABASE_URL,
      TEMPORAL_ADDRESS: app.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE_PREFIX: app.config.TEMPORAL_TASK_QUEUE_PREFIX,
      WORKER_BUNDLE_PATH: testEnv('bundlePath'),
      SSRF_ALLOWLIST: '127.0.0.1/8',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return child;
}

/**
 * Resolves with what `match` finds in the child's output (stdout and stderr); rejects if the child exits first, or
 * after `timeoutMs` (0: no limit).
 */
export function outputMatch<T>(child: ChildProcess, what: string, match: (out: string) => T | undefined, timeoutMs = 60_000): Promise<T> {
  let out = '';
  return new Promise<T>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const found = match(out);
      if (found !== undefined) resolve(found);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what}: exited (${code}) first:\n${out.slice(-2000)}`)));
    if (timeoutMs) setTimeout(() => reject(new Error(`${what}: not after ${timeoutMs / 1000} s:\n${out.slice(-2000)}`)), timeoutMs).unref();
  });
}

/** Starts worker/main.ts as its own process on the app's task queues; resolves once it polls. */
export async function startWorkerProcess(app: TestApp, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawnOnApp(app, path.join('worker', 'main.ts'), {
    WORKER_METRICS_PORT: String(await freePort()),
    WORKER_HEALTH_PORT: '0',
    LOG_LEVEL: 'info',
    ...extraEnv,
  });
  await outputMatch(child, 'worker polling', (out) => (out.includes('worker polling') ? true : undefined));
  return child;
}

/** Kills (SIGKILL) every process this test file started through spawnOnApp that is still running. */
export function killWorkerProcesses(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
