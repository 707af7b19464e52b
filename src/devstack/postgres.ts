import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';

import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { portOpen, waitFor } from './net';

const exec = promisify(execFile);

export interface RunningPostgres {
  url: string;
  started: boolean;
  stop(): Promise<void>;
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
export async function postgresBinDir(): Promise<string | undefined> {
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

/**
 * Starts (or reuses) a private PostgreSQL cluster under dataDir, listening on 127.0.0.1 only, owned by the
 * `postgres` user when we run as root; then makes sure the role and the database exist.
 */
export async function startPrivatePostgres(o: PrivateClusterOptions): Promise<RunningPostgres> {
  const say = o.say ?? (() => undefined);
  const url = `postgres://${ROLE}:${ROLE_PASSWORD}@127.0.0.1:${o.port}/${o.database}`;
  const clusterDir = path.join(o.dataDir, 'postgres');
  const socketDir = path.join(o.dataDir, 'postgres-run');
  const bin = await postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot ? exec('runuser', ['-u', 'postgres', '--', path.join(bin!, cmd), ...args]) : exec(path.join(bin!, cmd), args);

  let started = false;
  if (!(await portOpen('127.0.0.1', o.port))) {
    if (!bin) {
      throw new Error('No PostgreSQL server found: install PostgreSQL (Debian: apt-get install postgresql) or set DATABASE_URL.');
    }
    mkdirSync(o.dataDir, { recursive: true });
    for (const dir of [clusterDir, socketDir]) mkdirSync(dir, { recursive: true });
    if (asRoot) {
      const { stdout } = await exec('id', ['-u', 'postgres']).catch(() => {
        throw new Error('Running as root needs the `postgres` user to own the private cluster; set DATABASE_URL instead.');
      });
      const { stdout: gid } = await exec('id', ['-g', 'postgres']);
      for (const dir of [clusterDir, socketDir]) chownSync(dir, Number(stdout), Number(gid));
      // The postgres user must be able to reach the data folder.
      chmodSync(o.dataDir, 0o755);
    }
    chmodSync(clusterDir, 0o700);
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      say(`Creating a private PostgreSQL cluster in ${clusterDir}…`);
      await run('initdb', ['-D', clusterDir, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-instructions']);
    }
    await run('pg_ctl', [
      '-D', clusterDir,
      '-l', path.join(o.dataDir, 'postgres-run', 'postgres.log'),
      '-o', `-p ${o.port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on`,
      '-w', '-t', '60', 'start',
    ]);
    started = true;
  }
  await waitFor('PostgreSQL', () => portOpen('127.0.0.1', o.port), 30_000);
  await ensureRoleAndDatabase(socketDir, o.port, o.database);
  return {
    url,
    started,
    async stop() {
      if (started) await run('pg_ctl', ['-D', clusterDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
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

export const defaultPostgresPort = 5433;
