import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { portOpen, waitFor } from './net';
import type { TemporalCli } from './temporal-cli';

export interface DevServerOptions {
  cli: TemporalCli;
  host: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** Folder for the SQLite file and the server log; omit for an in-memory database. */
  dataDir?: string;
  headless?: boolean;
  /** The remote codec endpoint the Web UI decodes payloads through (the api's /temporal-codec). */
  uiCodecEndpoint?: string;
  /**
   * Run the server in its own process group, so a terminal's Ctrl-C (sent to the whole foreground group) does
   * not kill it before the api and worker that use it have stopped; stop() or kill() then ends it.
   */
  ownProcessGroup?: boolean;
}

export interface RunningTemporal {
  address: string;
  uiUrl?: string;
  /** False when an already-running server was reused (stop() then leaves it alone). */
  started: boolean;
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL); for a forced exit. */
  kill(): void;
}

/**
 * The dev server's single history shard polls its transfer queue at most 20 times a second by default, ~30 ms per
 * workflow trip under back-to-back load; lifted, a one-activity workflow takes a fraction of that (bench/automation.ts).
 */
const DEV_SERVER_DYNAMIC_CONFIG = ['--dynamic-config-value', 'history.transferProcessorMaxPollRPS=10000'];

/** The dev server's arguments: a WAL-mode SQLite file (4× faster than the default journal) on loopback. */
function devServerArgs(o: Omit<DevServerOptions, 'cli'>): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    o.host,
    '--port',
    String(o.port),
    '--namespace',
    o.namespace,
    '--log-level',
    'warn',
    ...DEV_SERVER_DYNAMIC_CONFIG,
  ];
  if (o.headless) args.push('--headless');
  else {
    args.push('--ui-port', String(o.uiPort));
    if (o.uiCodecEndpoint) args.push('--ui-codec-endpoint', o.uiCodecEndpoint);
  }
  if (o.dataDir) {
    args.push('--db-filename', path.join(o.dataDir, 'temporal.db'));
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  return args;
}

/** Starts the Temporal dev server, or reuses one already listening on the port. */
export async function startTemporalDevServer(o: DevServerOptions): Promise<RunningTemporal> {
  const address = `${o.host}:${o.port}`;
  const uiUrl = o.headless ? undefined : `http://${o.host}:${o.uiPort}`;
  if (await portOpen(o.host, o.port)) {
    return { address, uiUrl, started: false, stop: async () => undefined, kill: () => undefined };
  }
  if (o.cli.kind === 'sdk-download') return startViaSdk(o, address, uiUrl);

  let logFd: number | 'ignore' = 'ignore';
  if (o.dataDir) {
    mkdirSync(o.dataDir, { recursive: true });
    logFd = openSync(path.join(o.dataDir, 'temporal.log'), 'a');
  }
  const group = Boolean(o.ownProcessGroup);
  const child = spawn(o.cli.path, devServerArgs(o), { stdio: ['ignore', logFd, logFd], detached: group });
  // The server's lifetime is managed through stop(); it must not keep a finished caller (a test run) alive.
  child.unref();
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  await waitFor(
    `the Temporal dev server on ${address}`,
    async () => {
      if (exited) throw new Error(`Temporal dev server ${exited}${o.dataDir ? ` (see ${path.join(o.dataDir, 'temporal.log')})` : ''}`);
      return portOpen(o.host, o.port);
    },
    60_000,
  ).catch((err) => {
    signalChild(child, 'SIGKILL', group);
    throw err;
  });
  return { address, uiUrl, started: true, stop: () => stopChild(child, { group }), kill: () => signalChild(child, 'SIGKILL', group) };
}

/** Sends signal to the child, or to its whole process group when it leads one. */
function signalChild(child: ChildProcess, signal: NodeJS.Signals, group: boolean): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (group) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM, then SIGKILL after a grace period (to the child's process group when it leads one). */
function stopChild(child: ChildProcess, o: { graceMs?: number; group?: boolean } = {}): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const group = Boolean(o.group);
  return new Promise((resolve) => {
    const timer = setTimeout(() => signalChild(child, 'SIGKILL', group), o.graceMs ?? 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signalChild(child, 'SIGTERM', group);
  });
}

async function startViaSdk(o: DevServerOptions, address: string, uiUrl: string | undefined): Promise<RunningTemporal> {
  if (o.cli.kind !== 'sdk-download') throw new Error('unreachable');
  // Loaded lazily: only machines without a local CLI need the SDK's downloader.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', downloadDir: o.cli.downloadDir },
      ip: o.host,
      port: o.port,
      ui: !o.headless,
      uiPort: o.headless ? undefined : o.uiPort,
      namespace: o.namespace,
      dbFilename: o.dataDir ? path.join(o.dataDir, 'temporal.db') : undefined,
      extraArgs: [
        ...DEV_SERVER_DYNAMIC_CONFIG,
        ...(!o.headless && o.uiCodecEndpoint ? ['--ui-codec-endpoint', o.uiCodecEndpoint] : []),
        ...(o.dataDir ? ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'] : []),
      ],
    },
  });
  return { address, uiUrl, started: true, stop: () => env.teardown(), kill: () => void env.teardown().catch(() => undefined) };
}
