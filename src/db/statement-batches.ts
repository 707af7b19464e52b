/** How a batcher gathers and orders its items. */
export interface BatchOptions<T> {
  /** Items per statement at most. */
  max: number;
  /** Wait one turn of the event loop before the first statement, so that items arriving together go together. */
  gatherOneTurn?: boolean;
  /** The order items go in within a statement (e.g. to take row locks in one order). */
  order?: (a: T, b: T) => number;
  /**
   * Under concurrent load, hold a statement up to this long for more items to join it. Load is what the batcher
   * itself sees: an item arriving while a statement is pending, or the last statement carrying several. Items that
   * come one at a time (each after the previous one's answer) never wait.
   */
  lingerMs?: number;
}

/**
 * Concurrent writes as few statements: while one statement is in flight, the items that arrive wait and then go
 * together (one round trip and one commit for all of them); a lone item goes at once (or on the next turn, with
 * gatherOneTurn), so nothing waits when the api is quiet. `run` answers one result per item, in the batch's order.
 * A statement of several items that fails is retried item by item, so one bad item fails only its own caller.
 */
export class StatementBatches<T, R> {
  private queue: { item: T; resolve(r: R): void; reject(err: unknown): void }[] = [];
  private busy = false;
  /** The last statement carried several items or had waited behind another: the next lone item waits for company. */
  private concurrent = false;
  private lingering?: NodeJS.Timeout;

  constructor(
    private readonly run: (batch: T[]) => Promise<R[]>,
    private readonly o: BatchOptions<T>,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.busy) {
        // A full statement goes now, lingering or not.
        if (this.lingering && this.queue.length >= this.o.max) this.flushNow();
        return;
      }
      this.busy = true;
      if (this.o.lingerMs && this.concurrent) this.lingering = setTimeout(() => this.flushNow(), this.o.lingerMs);
      else if (this.o.gatherOneTurn) setImmediate(() => void this.flush());
      else void this.flush();
    });
  }

  private flushNow(): void {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    void this.flush();
  }

  private async flush(): Promise<void> {
    for (let first = true; this.queue.length; first = false) {
      const batch = this.queue.splice(0, this.o.max);
      // Several items at once, or any that queued behind a statement, is concurrent load.
      this.concurrent = batch.length > 1 || !first;
      if (this.o.order) batch.sort((a, b) => this.o.order!(a.item, b.item));
      try {
        const results = await this.run(batch.map((p) => p.item));
        batch.forEach((p, i) => p.resolve(results[i]!));
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        else
          for (const p of batch)
            await this.run([p.item]).then(
              ([r]) => p.resolve(r!),
              (e: unknown) => p.reject(e),
            );
      }
    }
    this.busy = false;
  }
}
