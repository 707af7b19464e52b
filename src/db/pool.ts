import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import type { Logger } from 'pino';
import { listenWithReconnect, type Listener, type OnNotify } from './listen';

/** The app's only handle on PostgreSQL: a pool, parameterised queries and transactions. */
export interface Db {
  query<R extends QueryResultRow = QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(text: string, params?: unknown[]): Promise<R | undefined>;
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** LISTENs on a channel on a connection of its own, reconnecting after a database restart (see listenWithReconnect). */
  listen(channel: string, onNotify: OnNotify): Promise<Listener>;
  close(): Promise<void>;
  readonly pool: Pool;
}

/** What repositories take: the pool itself or one transaction's client. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(text: string, params?: unknown[]): Promise<R | undefined>;
}

function wrap(client: Pool | PoolClient): Queryable {
  return {
    async query<R extends QueryResultRow>(text: string, params?: unknown[]) {
      return (await client.query<R>(text, params)).rows;
    },
    async one<R extends QueryResultRow>(text: string, params?: unknown[]): Promise<R | undefined> {
      const rows = (await client.query<R>(text, params)).rows;
      return rows[0];
    },
  };
}

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
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
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
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
