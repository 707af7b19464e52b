import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import type { Logger } from 'pino';
import { tracedQuery } from '../telemetry/db-spans';
import { listenWithReconnect, type Listener, type OnNotify } from './listen';

/**
 * A hot statement that each connection parses and plans once (a named prepared statement), then only binds and runs.
 * Planning is most of a simple query's cost when its table has many indexes: a lead lookup by phone costs Postgres
 * ~150 µs of CPU unnamed and ~40 µs prepared (measured here). Names must be unique per text: see `prepared`.
 */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

const preparedNames = new Map<string, string>();

/** Declares a prepared statement; a name given two different texts is a programming error and throws at load time. */
export function prepared(name: string, text: string): Prepared {
  const known = preparedNames.get(name);
  if (known !== undefined && known !== text) throw new Error(`prepared statement ${name} declared with two different texts`);
  preparedNames.set(name, text);
  return { name, text };
}

/** SQL text, or a prepared statement. */
export type Sql = string | Prepared;

/**
 * A value kept per database handle (the pool, or one transaction's client), made by `make` on first use: a batcher
 * or a cache that must not be shared between a transaction and the pool.
 */
export function perHandle<T>(make: (db: Queryable) => T): (db: Queryable) => T {
  const values = new WeakMap<Queryable, T>();
  return (db) => {
    let value = values.get(db);
    if (value === undefined) values.set(db, (value = make(db)));
    return value;
  };
}

/** The app's only handle on PostgreSQL: a pool, parameterised queries and transactions. */
export interface Db {
  query<R extends QueryResultRow = QueryResultRow>(sql: Sql, params?: unknown[]): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(sql: Sql, params?: unknown[]): Promise<R | undefined>;
  /**
   * Runs fn in one transaction; a deadlock or serialization victim runs again, unless fn does more than query
   * (`once: true`: e.g. it calls a vendor while holding a lock).
   */
  tx<T>(fn: (q: Queryable) => Promise<T>, opts?: { once?: boolean }): Promise<T>;
  ping(): Promise<void>;
  /** LISTENs on a channel on a connection of its own, reconnecting after a database restart (see listenWithReconnect). */
  listen(channel: string, onNotify: OnNotify): Promise<Listener>;
  close(): Promise<void>;
  readonly pool: Pool;
}

/** What repositories take: the pool itself or one transaction's client. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: Sql, params?: unknown[]): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(sql: Sql, params?: unknown[]): Promise<R | undefined>;
}

function wrap(client: Pool | PoolClient): Queryable {
  const run = <R extends QueryResultRow>(sql: Sql, params?: unknown[]) =>
    typeof sql === 'string'
      ? tracedQuery(sql, undefined, () => client.query<R>(sql, params))
      : tracedQuery(sql.text, sql.name, () => client.query<R>({ name: sql.name, text: sql.text, values: params }));
  return {
    async query<R extends QueryResultRow>(sql: Sql, params?: unknown[]) {
      return (await run<R>(sql, params)).rows;
    },
    async one<R extends QueryResultRow>(sql: Sql, params?: unknown[]): Promise<R | undefined> {
      const rows = (await run<R>(sql, params)).rows;
      return rows[0];
    },
  };
}

/** deadlock_detected and serialization_failure: the transaction was rolled back and may simply run again. */
const RETRIED_SQLSTATES = new Set(['40P01', '40001']);
const TX_ATTEMPTS = 4;

/** Opens a pool on url; nothing connects until the first query. */
export function createDb(url: string, opts: { max?: number; logger?: Logger } = {}): Db {
  const pool = new Pool({
    connectionString: url,
    max: opts.max ?? 20,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (err) => opts.logger?.warn({ err: err.message }, 'idle postgres client error'));
  const q = wrap(pool);
  return {
    pool,
    query: q.query,
    one: q.one,
    async tx(fn, txOpts) {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn(wrap(client));
          await client.query('COMMIT');
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          // Postgres chose this transaction as a deadlock's or a serialization conflict's victim: nothing of it was
          // written, so it runs again (its body is queries only, unless it says once) rather than failing a request that did nothing wrong.
          if (!RETRIED_SQLSTATES.has((err as { code?: string }).code ?? '') || attempt >= (txOpts?.once ? 1 : TX_ATTEMPTS)) throw err;
        } finally {
          client.release();
        }
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    listen(channel, onNotify) {
      return listenWithReconnect(url, channel, onNotify, { logger: opts.logger });
    },
    async close() {
      await pool.end();
    },
  };
}

/** True when err is a unique-constraint violation (SQLSTATE 23505). */
export const isUniqueViolation = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
