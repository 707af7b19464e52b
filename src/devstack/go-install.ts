import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A Go program built once per machine into ~/.cache/switchboard/<folder> (survives a fresh CI clone); the Temporal CLI and server. */
export interface GoBuild {
  /** What the messages call it, e.g. "the Temporal server v1.29.1". */
  what: string;
  /** The cache folder's name under ~/.cache/switchboard. */
  folder: string;
  /** `go install` arguments (package@version); every one lands in the folder under its last path element. */
  packages: string[];
  /** The binaries (names in the folder) that prove the build is complete. */
  binaries: string[];
  /** Said while it builds, e.g. "about 4 minutes on 2 cores". */
  estimate: string;
}

/** ~/.cache/switchboard (or $XDG_CACHE_HOME/switchboard). */
export const switchboardCache = (env: NodeJS.ProcessEnv = process.env) => path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'switchboard');

/** Whether file is an executable regular file. */
export const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The first executable called name in env.PATH's folders (and extra folders after them). */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env, extra: string[] = []): string | undefined {
  for (const dir of [...(env.PATH ?? '').split(path.delimiter), ...extra]) if (dir && executable(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

/** The Go toolchain: `go` on PATH, else /usr/local/go/bin/go. */
export const goBinary = (env: NodeJS.ProcessEnv = process.env): string | undefined => onPath('go', env, ['/usr/local/go/bin']);

// A lock older than 30 minutes belongs to a build that died.
const staleLock = (lock: string) => {
  try {
    return Date.now() - statSync(lock).mtimeMs > 30 * 60_000;
  } catch {
    return false; // gone meanwhile
  }
};

/**
 * Waits while another process builds (its lock folder exists): one line, then the time waited every reportMs.
 * True once built() holds; false when the lock went away without it, or turned stale.
 */
export async function waitForOtherBuild(
  lock: string,
  build: { what: string; built: () => boolean },
  say: (line: string) => void,
  opts = { pollMs: 1000, reportMs: 30_000 },
): Promise<boolean> {
  const started = Date.now();
  let reported = started;
  say(`Another process is building ${build.what}; waiting for it…`);
  for (;;) {
    await new Promise((r) => setTimeout(r, opts.pollMs));
    const waited = `${Math.round((Date.now() - started) / 1000)} s`;
    if (build.built()) {
      say(`The other process built ${build.what} (waited ${waited}).`);
      return true;
    }
    if (!existsSync(lock) || staleLock(lock)) return false;
    if (Date.now() - reported >= opts.reportMs) {
      reported = Date.now();
      say(`  …still waiting for the other build of ${build.what} (${waited})`);
    }
  }
}

/**
 * The build's folder, building it first when a binary is missing. A lock folder (`<folder>.lock`) makes parallel
 * callers wait for one build; the waiting and the building say so every 30 s.
 */
export async function goInstalled(b: GoBuild, o: { env?: NodeJS.ProcessEnv; say: (line: string) => void }): Promise<string> {
  const env = o.env ?? process.env;
  const dir = path.join(switchboardCache(env), b.folder);
  const complete = () => b.binaries.every((name) => executable(path.join(dir, name)));
  if (complete()) return dir;
  const go = goBinary(env);
  if (!go) throw new Error(`${b.what} is built with Go, which is not installed: install Go (https://go.dev/dl) or put it on PATH`);
  mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (staleLock(lock)) rmSync(lock, { recursive: true, force: true });
      else if (await waitForOtherBuild(lock, { what: b.what, built: complete }, o.say)) return dir;
    }
  }
  try {
    if (complete()) return dir;
    o.say(`Building ${b.what} from the Go module proxy into ${dir} (once per machine; ${b.estimate})…`);
    const started = Date.now();
    const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
    const ticker = setInterval(() => o.say(`  …still building ${b.what} (${seconds()})`), 30_000);
    try {
      // One `go install` per package: packages of different modules cannot share a command.
      for (const pkg of b.packages) await run(go, ['install', pkg], { ...env, CGO_ENABLED: '0', GOBIN: dir });
    } finally {
      clearInterval(ticker);
    }
    if (!complete()) throw new Error(`go install finished without ${b.binaries.join(', ')} in ${dir}`);
    o.say(`Built ${b.what} in ${seconds()}.`);
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs a command in os.tmpdir() (go install needs no module of ours), rejecting with its last stderr lines. */
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} ${args[0] ?? ''} exited with ${code}: ${err.trim()}`))));
  });
}
