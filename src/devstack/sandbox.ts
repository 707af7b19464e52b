import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { portOpen, waitFor } from './net';

/** The vendor sandbox as `npm start` runs it: its own process, on VENDOR_SANDBOX_URL's loopback port. */
export interface RunningSandbox {
  url: string;
  /** False when something already listened on the port (reused; stop() leaves it alone). */
  started: boolean;
  stop(): Promise<void>;
  kill(): void;
}

/**
 * Starts the sandbox when VENDOR_SANDBOX_URL is a loopback IP literal (the embedded default); undefined when it is unset
 * or elsewhere. Runs the compiled script in a build, the TypeScript one in a checkout.
 */
export async function startSandboxProcess(o: { baseUrl: string | undefined; env: NodeJS.ProcessEnv }): Promise<RunningSandbox | undefined> {
  if (!o.baseUrl) return undefined;
  const url = new URL(o.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(net.isIPv4(host) ? host.startsWith('127.') : host === '::1')) return undefined;
  const port = Number(url.port || 80);
  if (await portOpen(host, port)) return { url: url.origin, started: false, stop: async () => undefined, kill: () => undefined };
  const compiled = __filename.endsWith('.js');
  const script = path.resolve(__dirname, '..', 'sandbox', compiled ? 'main.js' : 'main.ts');
  const args = compiled ? [script] : [path.resolve(__dirname, '..', '..', 'bin', 'run-ts.js'), script];
  const child = spawn(process.execPath, [...args, '--port', String(port), '--host', host], {
    env: o.env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor('the vendor sandbox', () => portOpen(host, port), 20_000);
  return {
    url: url.origin,
    started: true,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
