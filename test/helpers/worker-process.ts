import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot, testEnv } from './env';
import { freePort } from './processes';
import type { TestApp } from './stack';

const started: ChildProcess[] = [];

/** Starts worker/main.ts as its own process on the app's task queues; resolves once it polls. */
export async function startWorkerProcess(app: TestApp, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join('worker', 'main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: app.config.DATABASE_URL,
      TEMPORAL_ADDRESS: app.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE_PREFIX: app.config.TEMPORAL_TASK_QUEUE_PREFIX,
      WORKER_METRICS_PORT: String(await freePort()),
      WORKER_BUNDLE_PATH: testEnv('bundlePath'),
      SSRF_ALLOWLIST: '127.0.0.1/8',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker polling')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling:\n${out.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`worker not polling after 60 s:\n${out.slice(-2000)}`)), 60_000).unref();
  });
  return child;
}

/** Kills (SIGKILL) every worker process this test file started that is still running. */
export function killWorkerProcesses(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
