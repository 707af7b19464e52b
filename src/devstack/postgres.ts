import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { portOpen, waitFor } from './net';

const exec = promisify(execFile);

export interface RunningPostgres {
  url: string;
  started: boolean;
  /** The cluster's data directory (under dataDir, or elsewhere when the postgres user cannot reach dataDir). */
  clusterDir: string;
  /** Fast shutdown (pg_ctl -m fast), immediate when that fails; only when this call started the cluster. */
  stop(): Promise<void>;
  /** Immediate shutdown (pg_ctl -m immediate); for a forced exit. */
  kill(): Promise<void>;
}

export interface PrivateClusterOptions {
  dataDir: string;
  port: number;
  database: string;
  say?: (line: string) => void;
}

const ROLE = 'switchboard';
const ROLE_PASSWORD = 'switchboard';

/** Finds the PostgreSQL server binaries (initdb, pg_ctl). */
async function postgresBinDir(): Promise<string | undefined> {
  try {
    const { stdout } = await exec('pg_config', ['--bindir']);
    const dir = stdout.trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // pg_config is not installed; look where Debian puts the servers.
  }
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(path.join(base, v, 'bin', 'initdb'))) return path.join(base, v, 'bin');
  return undefined;
}

/** Where root keeps a cluster whose dataDir the postgres user cannot reach: one folder per dataDir. */
export function sharedClusterBase(dataDir: string): string {
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  // /var/tmp, not /tmp: the cluster is the dev stack's data and must survive a reboot.
  return path.join('/var/tmp', `switchboard-${hash}`);
}

interface ClusterPlace {
  /** Holds the cluster (postgres/) and its socket and log folder (postgres-run/). */
  base: string;
  /** True when base is not dataDir (root, and dataDir is out of the postgres user's reach). */
  moved: boolean;
}

/**
 * As root the cluster runs as `postgres`, which must be able to enter its folders: a checkout under a private
 * home (mode 700) is out of its reach, so the cluster then lives in a root-owned 0755 folder under /var/tmp.
 */
async function placeCluster(dataDir: string, asRoot: boolean): Promise<ClusterPlace> {
  mkdirSync(dataDir, { recursive: true });
  if (!asRoot) return { base: dataDir, moved: false };
  chmodSync(dataDir, 0o755);
  const reachable = await exec('runuser', ['-u', 'postgres', '--', 'test', '-x', dataDir]).then(
    () => true,
    () => false,
  );
  if (reachable) return { base: dataDir, moved: false };
  const base = sharedClusterBase(dataDir);
  mkdirSync(base, { recursive: true, mode: 0o755 });
  // /var/tmp is world-writable: refuse a folder (or link) someone else put there first.
  const st = lstatSync(base);
  if (!st.isDirectory() || st.uid !== 0) throw new Error(`${base} is not a root-owned folder; remove it and start again`);
  chmodSync(base, 0o755);
  return { base, moved: true };
}

/**
 * Starts (or reuses) a private PostgreSQL cluster for dataDir, listening on 127.0.0.1 only, owned by the
 * `postgres` user when we run as root; then makes sure the role and the database exist.
 */
export async function startPrivatePostgres(o: PrivateClusterOptions): Promise<RunningPostgres> {
  const say = o.say ?? (() => undefined);
  const url = `postgres://${ROLE}:${ROLE_PASSWORD}@127.0.0.1:${o.port}/${o.database}`;
  const asRoot = process.getuid?.() === 0;
  const place = await placeCluster(o.dataDir, asRoot);
  const clusterDir = path.join(place.base, 'postgres');
  const socketDir = path.join(place.base, 'postgres-run');
  const bin = await postgresBinDir();
  const run = (cmd: string, args: string[]) =>
    asRoot ? exec('runuser', ['-u', 'postgres', '--', path.join(bin!, cmd), ...args]) : exec(path.join(bin!, cmd), args);
  if (place.moved) say(`PostgreSQL cluster in ${clusterDir} (the postgres user cannot enter ${o.dataDir})`);

  let started = false;
  if (!(await portOpen('127.0.0.1', o.port))) {
    if (!bin) {
      throw new Error('No PostgreSQL server found: install PostgreSQL (Debian: apt-get install postgresql) or set DATABASE_URL.');
    }
    for (const dir of [clusterDir, socketDir]) mkdirSync(dir, { recursive: true });
    if (asRoot) {
      const { stdout } = await exec('id', ['-u', 'postgres']).catch(() => {
        throw new Error('Running as root needs the `postgres` user to own the private cluster; set DATABASE_URL instead.');
      });
      const { stdout: gid } = await exec('id', ['-g', 'postgres']);
      for (const dir of [clusterDir, socketDir]) chownSync(dir, Number(stdout), Number(gid));
    }
    chmodSync(clusterDir, 0o700);
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      say(`Creating a private PostgreSQL cluster in ${clusterDir}…`);
      await run('initdb', ['-D', clusterDir, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-instructions']);
    }
    await run('pg_ctl', [
      '-D',
      clusterDir,
      '-l',
      path.join(socketDir, 'postgres.log'),
      '-o',
      `-p ${o.port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on`,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    started = true;
  }
  await waitFor('PostgreSQL', () => portOpen('127.0.0.1', o.port), 30_000);
  await ensureRoleAndDatabase(socketDir, o.port, o.database);
  const pgStop = (mode: 'fast' | 'immediate') => run('pg_ctl', ['-D', clusterDir, '-m', mode, '-w', '-t', '10', 'stop']);
  return {
    url,
    started,
    clusterDir,
    async stop() {
      if (started)
        await pgStop('fast')
          .catch(() => pgStop('immediate'))
          .catch(() => undefined);
    },
    async kill() {
      if (started) await pgStop('immediate').catch(() => undefined);
    },
  };
}

/** Creates the application role and database through the cluster's local socket (trust for the OS owner). */
async function ensureRoleAndDatabase(socketDir: string, port: number, database: string): Promise<void> {
  const admin = new Client({ host: socketDir, port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  try {
    const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [ROLE]);
    if (role.rowCount === 0) {
      await admin.query(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${ROLE_PASSWORD}' CREATEDB`).catch(ignoreExists);
    }
    const db = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (db.rowCount === 0) {
      if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`bad database name ${database}`);
      await admin.query(`CREATE DATABASE ${database} OWNER ${ROLE}`).catch(ignoreExists);
    }
  } finally {
    await admin.end();
  }
}

const ignoreExists = (err: Error & { code?: string }) => {
  // 42710 duplicate_object, 42P04 duplicate_database: a concurrent starter got there first.
  if (err.code !== '42710' && err.code !== '42P04') throw err;
};

/** Creates a database (if missing) on the server at url, using that URL's credentials. */
export async function ensureDatabase(url: string, database: string): Promise<string> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${database}`).catch(ignoreExists);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
