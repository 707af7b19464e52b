import { spawn } from 'node:child_process';
import path from 'node:path';
import { portOpen, waitFor } from './net';

/** The voice process as `npm start` runs it: a process of its own (its own event loop), on VOICE_HOST:VOICE_PORT. */
export interface RunningVoiceProcess {
  url: string;
  /** False when something already listened on the port (reused; stop() leaves it alone). */
  started: boolean;
  stop(): Promise<void>;
  kill(): void;
}

/**
 * Starts src/voice/http/run (the compiled script in a build, the TypeScript one in a checkout) with env, and waits
 * until it listens. SIGTERM drains it: open streams get VOICE_DRAIN_MS, then close.
 */
export async function startVoiceProcess(o: { host: string; port: number; env: NodeJS.ProcessEnv }): Promise<RunningVoiceProcess> {
  const host = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host;
  const url = `http://${host}:${o.port}`;
  if (await portOpen(host, o.port)) return { url, started: false, stop: async () => undefined, kill: () => undefined };
  const compiled = __filename.endsWith('.js');
  const script = path.resolve(__dirname, '..', 'voice', 'http', compiled ? 'run.js' : 'run.ts');
  const args = compiled ? [script] : [path.resolve(__dirname, '..', '..', 'bin', 'run-ts.js'), script];
  const child = spawn(process.execPath, args, { env: o.env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor('the voice process', () => portOpen(host, o.port), 30_000);
  return {
    url,
    started: true,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
