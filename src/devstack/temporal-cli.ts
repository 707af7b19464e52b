import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The Temporal CLI version we build: later tags fail `go install` because of a replace directive. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

export type TemporalCli = { kind: 'binary'; path: string; source: string } | { kind: 'sdk-download'; downloadDir: string };

/** Cache folder for the CLI binary, shared by every clone on the machine (survives a fresh CI clone). */
export function cliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'switchboard', `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/**
 * Finds a Temporal CLI: TEMPORAL_CLI_PATH → `temporal` on PATH → the cache folder → `go install` into the
 * cache → the SDK's download (for machines with internet). Throws a message saying what to do when none works.
 */
export async function resolveTemporalCli(opts: { env?: NodeJS.ProcessEnv; say?: (line: string) => void } = {}): Promise<TemporalCli> {
  const env = opts.env ?? process.env;
  const say = opts.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (env.TEMPORAL_CLI_PATH) {
    if (!isExecutable(env.TEMPORAL_CLI_PATH)) {
      throw new Error(`TEMPORAL_CLI_PATH: ${env.TEMPORAL_CLI_PATH} is not an executable file`);
    }
    return { kind: 'binary', path: env.TEMPORAL_CLI_PATH, source: 'TEMPORAL_CLI_PATH' };
  }
  const fromPath = onPath('temporal', env);
  if (fromPath) return { kind: 'binary', path: fromPath, source: 'PATH' };

  const cache = cliCacheDir(env);
  const cached = path.join(cache, 'temporal');
  if (isExecutable(cached)) return { kind: 'binary', path: cached, source: 'cache' };

  const go = onPath('go', env) ?? (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (go) {
    await goInstall(go, cache, env, say);
    if (isExecutable(cached)) return { kind: 'binary', path: cached, source: 'go install' };
  }
  if (env.SWITCHBOARD_NO_CLI_DOWNLOAD !== 'true') {
    say('No Go toolchain: the Temporal SDK will download the CLI (needs internet access).');
    return { kind: 'sdk-download', downloadDir: path.join(cache, 'sdk-download') };
  }
  throw new Error(
    'No Temporal CLI found. Set TEMPORAL_CLI_PATH to a `temporal` binary, put one on PATH, or install Go so it can be built with ' +
      `\`CGO_ENABLED=0 go install github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}\`.`,
  );
}

// A lock older than 30 minutes belongs to a build that died.
const staleLock = (lock: string) => {
  try {
    return Date.now() - statSync(lock).mtimeMs > 30 * 60_000;
  } catch {
    return false; // gone meanwhile
  }
};

/**
 * Waits while another process builds the CLI (its lock folder exists): one line, then the time waited every reportMs.
 * True once that build's binary exists; false when the lock went away without one, or turned stale.
 */
export async function waitForOtherBuild(
  lock: string,
  binary: string,
  say: (line: string) => void,
  opts = { pollMs: 1000, reportMs: 30_000 },
): Promise<boolean> {
  const started = Date.now();
  let reported = started;
  say('Another process is building the Temporal CLI; waiting for it…');
  for (;;) {
    await new Promise((r) => setTimeout(r, opts.pollMs));
    const waited = `${Math.round((Date.now() - started) / 1000)} s`;
    if (existsSync(binary)) {
      say(`The other process built the Temporal CLI (waited ${waited}).`);
      return true;
    }
    if (!existsSync(lock) || staleLock(lock)) return false;
    if (Date.now() - reported >= opts.reportMs) {
      reported = Date.now();
      say(`  …still waiting for the other build of the Temporal CLI (${waited})`);
    }
  }
}

/** Builds the CLI into the cache; a lock folder makes concurrent callers wait for one build. */
async function goInstall(go: string, cache: string, env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<void> {
  mkdirSync(path.dirname(cache), { recursive: true });
  const lock = `${cache}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (staleLock(lock)) rmSync(lock, { recursive: true, force: true });
      else if (await waitForOtherBuild(lock, path.join(cache, 'temporal'), say)) return;
    }
  }
  try {
    if (existsSync(path.join(cache, 'temporal'))) return;
    say(
      `Building the Temporal CLI ${TEMPORAL_CLI_VERSION} from the Go module proxy into ${cache} ` +
        '(once per machine; about 5½ minutes on 2 cores, a 252 MB binary)…',
    );
    const started = Date.now();
    const ticker = setInterval(() => say(`  …still building the Temporal CLI (${Math.round((Date.now() - started) / 1000)} s)`), 30_000);
    try {
      await run(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
        ...env,
        CGO_ENABLED: '0',
        GOBIN: cache,
      });
    } finally {
      clearInterval(ticker);
    }
    say(`Built the Temporal CLI in ${Math.round((Date.now() - started) / 1000)} s.`);
  } catch (err) {
    say(`go install of the Temporal CLI failed: ${(err as Error).message}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${stderr.trim()}`))));
  });
}
