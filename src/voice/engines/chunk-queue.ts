/**
 * A push-to-pull bridge: a producer (a native callback, a child process) pushes chunks; the consumer iterates them.
 * Aborting ends the iteration at once (what was pushed but not taken is dropped), so nothing is yielded after it.
 */
export class ChunkQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', () => this.notify(), { once: true });
  }

  push(item: T): void {
    if (this.ended || this.signal.aborted) return;
    this.items.push(item);
    this.notify();
  }

  end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.notify();
  }

  private notify() {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.signal.aborted) return;
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
