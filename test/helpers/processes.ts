import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from './env';

/** The first port of the kernel's ephemeral range, where outgoing connections take their source ports (Linux). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

/** True when nothing listens on 127.0.0.1:port (binding it works). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// Ports this process has handed out: a test file never gets the same one twice.
const handedOut = new Set<number>();
// The ephemeral range's first port, read once.
let ephemeral: number | undefined;

/**
 * A TCP port nobody listens on right now, for a process a test starts. It is picked below the ephemeral range: a port
 * the kernel hands out for listen(0) and that is freed again can be taken as the source port of any outgoing
 * connection before the process under test binds it (the dev stack test once lost its api port so, to the stack's own
 * connections to Postgres and Temporal).
 */
export async function freePort(): Promise<number> {
  const high = (ephemeral ??= ephemeralLow());
  const low = Math.max(1024, high - 12_000);
  for (let tries = 0; tries < 1000; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${low}–${high - 1}`);
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
  /** Resolves once the combined output matches pattern (rejects on exit or after timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
  exited: Promise<number | null>;
}

/**
 * Runs `switchboard <args>` (bin/switchboard.js) as a child process with the given environment; detached makes
 * it lead its own process group, as a command started from a terminal does (signal it with process.kill(-pid)).
 */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv, opts: { detached?: boolean } = {}): Spawned {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'switchboard.js'), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            cleanup();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output:\n${out.slice(-3000)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (listeners.has(check)) {
            cleanup();
            reject(new Error(`process exited (${code}) before ${pattern}; output:\n${out.slice(-3000)}`));
          }
        });
        check();
      });
    },
  };
}

/** Runs `switchboard <args>` to completion (stdin: input, then closed) and returns its exit code, stdout and stderr separately. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'switchboard.js'), ...args], { cwd: repoRoot, env });
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
