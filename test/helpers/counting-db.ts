// A handle over a pool that counts the statements sent through it; a handle of its own, so that code batching per
// handle (LeadInserts, call admission) gets a batcher of its own for it.
import type { Db, Queryable, Sql } from '../../src/db/pool';

/** `db`'s query and one, counting each statement in `statements`. */
export function countingQueryable(db: Db): Queryable & { statements: number } {
  const q = {
    statements: 0,
    query: <R extends object>(text: Sql, params?: unknown[]) => {
      q.statements++;
      return db.query(text, params) as Promise<R[]>;
    },
    one: <R extends object>(text: Sql, params?: unknown[]) => {
      q.statements++;
      return db.one(text, params) as Promise<R | undefined>;
    },
  };
  return q as Queryable & { statements: number };
}
