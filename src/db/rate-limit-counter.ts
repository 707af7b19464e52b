import type { Logger } from 'pino';
import type { Db } from './pool';
import { addWindowHits, deleteExpiredWindows } from './rate-limits';

interface Entry {
  windowStart: number;
  /** The total across every process, as of this process's last report. */
  known: number;
  /** Counted here since the last report. */
  pending: number;
  /** Counted here, sent in the report under way. */
  sending: number;
}

/**
 * Fixed-window request counters shared by every api process through Postgres. A request is decided locally (no
 * query on the request's path); each process reports its new hits in one upsert every `syncMs` and learns the
 * buckets' totals back. So the limit holds across processes up to what each one admits within one sync interval.
 */
export class RateLimitCounter {
  private readonly entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private lastCleanup = 0;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    readonly windowMs: number,
    private readonly syncMs: number,
  ) {}

  /** Counts one request against bucket; returns the seconds to wait when the bucket is already at its limit. */
  hit(bucket: string, limit: number, now = Date.now()): number | undefined {
    const wait = this.peek(bucket, limit, now);
    if (wait !== undefined) return wait;
    this.entries.get(bucket)!.pending++;
    this.schedule();
    return undefined;
  }

  /**
   * The seconds to wait when bucket is already at its limit, counting nothing (a limit on failures: peek before the
   * attempt, hit once it failed).
   */
  peek(bucket: string, limit: number, now = Date.now()): number | undefined {
    const windowStart = now - (now % this.windowMs);
    let entry = this.entries.get(bucket);
    if (!entry || entry.windowStart < windowStart) {
      entry = { windowStart, known: 0, pending: 0, sending: 0 };
      this.entries.set(bucket, entry);
    }
    if (entry.known + entry.sending + entry.pending >= limit) return Math.max(1, Math.ceil((windowStart + this.windowMs - now) / 1000));
    return undefined;
  }

  /** Reports pending hits now and learns the totals back (normally done every syncMs). */
  flush(): Promise<void> {
    return (this.flushing ??= this.report().finally(() => {
      this.flushing = undefined;
      if ([...this.entries.values()].some((e) => e.pending > 0)) this.schedule();
    }));
  }

  /** Stops syncing after a last report. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.flush().catch(() => undefined);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.syncMs);
    this.timer.unref();
  }

  private async report(): Promise<void> {
    const now = Date.now();
    const batch = [];
    for (const [bucket, e] of this.entries) {
      if (e.pending > 0) {
        e.sending = e.pending;
        e.pending = 0;
        batch.push({ bucket, windowStart: e.windowStart, windowMs: this.windowMs, hits: e.sending });
      } else if (e.windowStart + this.windowMs <= now && e.sending === 0) {
        this.entries.delete(bucket); // a past window with nothing left to report
      }
    }
    try {
      for (const total of await addWindowHits(this.db, batch)) {
        const e = this.entries.get(total.bucket);
        if (e && e.windowStart === total.windowStart) e.known = total.hits;
        else if (e && e.windowStart < total.windowStart) Object.assign(e, { windowStart: total.windowStart, known: total.hits });
        if (e) e.sending = 0;
      }
      if (now - this.lastCleanup > 60_000) {
        this.lastCleanup = now;
        await deleteExpiredWindows(this.db);
      }
    } catch (err) {
      // The database is away: keep the hits for the next report and go on deciding locally.
      for (const b of batch) {
        const e = this.entries.get(b.bucket);
        if (e && e.sending) Object.assign(e, { pending: e.pending + e.sending, sending: 0 });
      }
      this.log.warn({ err: (err as Error).message }, 'could not sync rate-limit counters');
    }
  }
}
