import { spawn } from 'node:child_process';
import path from 'node:path';
import { portOpen, waitFor } from './net';

/** The voice process as `npm start` runs it: a process of its own (its own event loop), on VOICE_HOST:VOICE_PORT. */
export interface RunningVoiceProcess {
  url: string;
  /** False when something already listened on the port (reused; stop() leaves it alone). */
  started: boolean;
  /** The engines it holds, kind → name → the engine behind the name (from its /readyz), when it said. */
  engines?: Record<string, Record<string, string>>;
  stop(): Promise<void>;
  kill(): void;
}

/** How long the voice process may take to listen: it starts its speech engines first (the speech worker loads Whisper). */
const START_TIMEOUT_MS = 90_000;

/** The engines a voice process reports on /readyz (undefined when it does not answer so). */
async function voiceEngines(url: string): Promise<RunningVoiceProcess['engines']> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as { engines?: RunningVoiceProcess['engines'] };
    return body.engines;
  } catch {
    return undefined;
  }
}

/**
 * Starts src/voice/http/run (the compiled script in a build, the TypeScript one in a checkout) with env, and waits
 * until it listens (it starts its engines before it listens). SIGTERM drains it: open streams get VOICE_DRAIN_MS, then close.
 */
export async function startVoiceProcess(o: { host: string; port: number; env: NodeJS.ProcessEnv }): Promise<RunningVoiceProcess> {
  const host = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host;
  const url = `http://${host}:${o.port}`;
  if (await portOpen(host, o.port)) return { url, started: false, engines: await voiceEngines(url), stop: async () => undefined, kill: () => undefined };
  const compiled = __filename.endsWith('.js');
  const script = path.resolve(__dirname, '..', 'voice', 'http', compiled ? 'run.js' : 'run.ts');
  const args = compiled ? [script] : [path.resolve(__dirname, '..', '..', 'bin', 'run-ts.js'), script];
  const child = spawn(process.execPath, args, { env: o.env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const died = () => child.exitCode !== null || child.signalCode !== null;
  await waitFor('the voice process', async () => died() || (await portOpen(host, o.port)), START_TIMEOUT_MS);
  if (died()) throw new Error(`the voice process exited during start-up (${child.signalCode ?? child.exitCode})`);
  return {
    url,
    started: true,
    engines: await voiceEngines(url),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
