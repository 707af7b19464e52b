import type { Queryable, Sql } from '../../db/pool';
import { StatementBatches } from '../../db/statement-batches';

/** One new lead's INSERT values, in column order (see INSERT_COLUMNS). */
export type NewLeadValues = [id: string, workspaceId: string, phone: string, ...rest: unknown[]];

// Enough rows that a burst goes in a few statements; far below Postgres's 65,535 parameters.
const MAX_ROWS = 100;

/**
 * How long a statement may wait for more rows under concurrent load (rows that come one at a time never wait). A lead
 * row costs Postgres ~300 µs of CPU alone in its statement and ~120 µs among four (measured here): worth a few ms of a
 * request that is queueing behind others anyway.
 */
const LINGER_MS = 5;

/**
 * Concurrent new-lead INSERTs as one statement: while one statement is in flight, the inserts that arrive wait and
 * then go together as a multi-row INSERT … ON CONFLICT DO NOTHING (one round trip and one commit for all of them).
 * A lone insert goes at once when inserts come one at a time; under concurrent load a statement waits up to LINGER_MS
 * for more rows. Each caller gets its own row back, or undefined
 * when its phone was taken (by a lead on file, or by an earlier row of the same statement); a statement that fails
 * is retried row by row, so one bad row fails only its own caller.
 */
export class LeadInserts<R extends { id: string }> {
  private readonly batches: StatementBatches<NewLeadValues, R | undefined>;

  constructor(db: Queryable, sql: (rows: number) => Sql) {
    this.batches = new StatementBatches(
      async (batch) => {
        const rows = await db.query<R>(sql(batch.length), batch.flat());
        // The inserted rows come back by their new ids; a row left out found its phone taken (also by an earlier row
        // of this statement: a second caller with the same new phone then finds that lead, as when the two go apart).
        const byId = new Map(rows.map((r) => [r.id, r]));
        return batch.map((values) => byId.get(values[0]));
      },
      { max: MAX_ROWS, lingerMs: LINGER_MS },
    );
  }

  insert(values: NewLeadValues): Promise<R | undefined> {
    return this.batches.add(values);
  }
}
