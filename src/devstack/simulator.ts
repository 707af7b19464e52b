import { spawn } from 'node:child_process';
import path from 'node:path';
import { portOpen, waitFor } from './net';

/** The carrier simulator as `npm start` runs it: its own process, on TELEPHONY_BASE_URL's loopback port. */
export interface RunningSimulator {
  url: string;
  /** False when something already listened on the port (reused; stop() leaves it alone). */
  started: boolean;
  stop(): Promise<void>;
  kill(): void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Starts the simulator when TELEPHONY_BASE_URL points at loopback (the embedded default); undefined for a real
 * provider. Runs the compiled script in a build, the TypeScript one in a checkout. It keeps its calls in `stateFile`, so
 * calls in flight at a stop go on after the next start.
 */
export async function startSimulatorProcess(o: { baseUrl: string; env: NodeJS.ProcessEnv; stateFile: string }): Promise<RunningSimulator | undefined> {
  const url = new URL(o.baseUrl);
  if (!LOOPBACK.has(url.hostname)) return undefined;
  const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 80);
  const origin = url.origin;
  if (await portOpen(host, port)) return { url: origin, started: false, stop: async () => undefined, kill: () => undefined };
  const compiled = __filename.endsWith('.js');
  const script = path.resolve(__dirname, '..', 'telephony', 'simulator', compiled ? 'main.js' : 'main.ts');
  const args = compiled ? [script] : [path.resolve(__dirname, '..', '..', 'bin', 'run-ts.js'), script];
  const child = spawn(process.execPath, [...args, '--port', String(port), '--host', host, '--state', o.stateFile], {
    env: o.env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor('the carrier simulator', () => portOpen(host, port), 20_000);
  return {
    url: origin,
    started: true,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
