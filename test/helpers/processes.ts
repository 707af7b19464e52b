import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './env';

// Ports for the processes a test starts: below the kernel's ephemeral range, never the same one twice in a file.
export { freePort } from '../../src/devstack/net';

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
