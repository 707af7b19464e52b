import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from './net';

/** How to (re)start one process of the cluster: its command, environment, log file and readiness check. */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr are appended here. */
  logFile: string;
  /** Resolves true once the process serves (a port open, a /readyz answering). */
  ready: () => Promise<boolean>;
  readyTimeoutMs?: number;
  /** How long SIGTERM gets before SIGKILL. */
  graceMs?: number;
}

/** One process of the cluster, in its own process group (a terminal's Ctrl-C reaches it only through the launcher). */
export interface ManagedProcess {
  readonly spec: ProcessSpec;
  pid(): number | undefined;
  running(): boolean;
  /** Starts it (again) and waits until it is ready. */
  start(): Promise<void>;
  /** SIGTERM, SIGKILL after the grace period; resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL to its group, at once; resolves once it exited. */
  kill(): Promise<void>;
}

/** The last lines of a log file, for an error message. */
function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .map((line) => line.slice(0, 400))
      .join('\n');
  } catch {
    return '';
  }
}

/** A process the cluster launcher starts, stops, kills and restarts (the fault test does all four). */
export function managedProcess(spec: ProcessSpec): ManagedProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const alive = () => !!child && child.exitCode === null && child.signalCode === null;
  const signal = (sig: NodeJS.Signals) => {
    if (!alive() || child!.pid === undefined) return;
    try {
      process.kill(-child!.pid, sig);
    } catch {
      // Already gone.
    }
  };
  return {
    spec,
    pid: () => child?.pid,
    running: alive,
    async start() {
      if (alive()) return;
      mkdirSync(path.dirname(spec.logFile), { recursive: true });
      const fd = openSync(spec.logFile, 'a');
      const started = spawn(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['ignore', fd, fd], detached: true });
      closeSync(fd);
      child = started;
      let gone = '';
      exited = new Promise((resolve) =>
        started.once('exit', (code, sig) => {
          gone = `exited with ${sig ?? code}`;
          resolve();
        }),
      );
      const died = exited.then(() => {
        throw new Error(`${spec.name} ${gone} during start-up (log ${spec.logFile}):\n${logTail(spec.logFile)}`);
      });
      try {
        await Promise.race([waitFor(spec.name, spec.ready, spec.readyTimeoutMs ?? 60_000), died]);
      } catch (err) {
        signal('SIGKILL');
        await exited;
        throw err;
      } finally {
        died.catch(() => undefined);
      }
    },
    async stop() {
      if (!alive()) return;
      const timer = setTimeout(() => signal('SIGKILL'), spec.graceMs ?? 10_000);
      signal('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      signal('SIGKILL');
      await exited;
    },
  };
}
