import type { Queryable } from '../pool';

/** One new lead's INSERT values, in column order (see INSERT_COLUMNS). */
export type NewLeadValues = [id: string, workspaceId: string, phone: string, ...rest: unknown[]];

interface Pending {
  values: NewLeadValues;
  resolve(row: unknown): void;
  reject(err: unknown): void;
}

// Enough rows that a burst goes in a few statements; far below Postgres's 65,535 parameters.
const MAX_ROWS = 100;

/**
 * Concurrent new-lead INSERTs as one statement: while one statement is in flight, the inserts that arrive wait and
 * then go together as a multi-row INSERT … ON CONFLICT DO NOTHING (one round trip and one commit for all of them).
 * A lone insert goes at once, so nothing waits when the api is quiet. Each caller gets its own row back, or undefined
 * when its phone was taken (by a lead on file, or by an earlier row of the same statement); a statement that fails
 * is retried row by row, so one bad row fails only its own caller.
 */
export class LeadInserts<R extends { id: string }> {
  private queue: Pending[] = [];
  private busy = false;

  constructor(
    private readonly db: Queryable,
    private readonly sql: (rows: number) => string,
  ) {}

  insert(values: NewLeadValues): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ values, resolve: resolve as (row: unknown) => void, reject });
      if (!this.busy) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.busy = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_ROWS);
      if (batch.length === 1) await this.one(batch[0]!);
      else await this.many(batch);
    }
    this.busy = false;
  }

  private async one(p: Pending): Promise<void> {
    try {
      p.resolve((await this.db.query<R>(this.sql(1), p.values))[0]);
    } catch (err) {
      p.reject(err);
    }
  }

  private async many(batch: Pending[]): Promise<void> {
    let rows: R[];
    try {
      rows = await this.db.query<R>(this.sql(batch.length), batch.flatMap((p) => p.values));
    } catch {
      await Promise.all(batch.map((p) => this.one(p)));
      return;
    }
    // The inserted rows come back by their new ids; a row left out found its phone taken (also by an earlier row of
    // this statement: a second caller with the same new phone then finds that lead, as when the two go apart).
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const p of batch) p.resolve(byId.get(p.values[0]));
  }
}
