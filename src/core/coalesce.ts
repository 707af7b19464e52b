/**
 * Runs the calls made for one key one at a time; callers arriving while a call runs share the next call, which starts
 * after they arrived (so its answer is never older than their request). A burst of N identical requests costs two
 * calls instead of N.
 */
export class Coalescer<T> {
  private readonly calls = new Map<string, { running: Promise<T>; next?: Promise<T> }>();

  run(key: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.calls.get(key);
    if (!entry) {
      const running = fn();
      this.calls.set(key, { running });
      this.whenSettled(key, running);
      return running;
    }
    entry.next ??= entry.running.then(fn, fn);
    return entry.next;
  }

  private whenSettled(key: string, call: Promise<T>): void {
    const done = () => {
      const entry = this.calls.get(key)!;
      if (entry.next) {
        this.calls.set(key, { running: entry.next });
        this.whenSettled(key, entry.next);
      } else {
        this.calls.delete(key);
      }
    };
    call.then(done, done);
  }
}
