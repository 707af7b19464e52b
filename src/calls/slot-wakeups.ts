// Wake-ups for calls waiting for a concurrent-call slot: one LISTEN (open only while someone waits) on the channel a
// released slot is announced on, fanned out to the waiters of that workspace.
import type { Db } from '../db/pool';
import type { Listener } from '../db/listen';
import { CALL_SLOT_CHANNEL } from './db/call-slots';

/** One waiter's watch on its workspace's released slots. */
export interface SlotWatch {
  /** A promise for the next notice from now on: call it before looking for a slot, so none in between is missed. */
  next(): Promise<void>;
  /** Stops watching. */
  close(): void;
}

/** Waiters per workspace, woken by the release notices (or all at once when notices may have been missed). */
export class SlotWakeups {
  private readonly watchers = new Map<string, Set<() => void>>();
  private listener?: Promise<Listener>;
  private count = 0;

  constructor(private readonly db: Pick<Db, 'listen'>) {}

  /** Watches the workspace's released slots until close(); resolves once the LISTEN has been attempted. */
  async watch(workspaceId: string): Promise<SlotWatch> {
    this.count++;
    this.listener ??= this.db.listen(CALL_SLOT_CHANNEL, (payload) => this.wake(payload));
    let resolve: (() => void) | undefined;
    const fire = () => resolve?.();
    let set = this.watchers.get(workspaceId);
    if (!set) this.watchers.set(workspaceId, (set = new Set()));
    set.add(fire);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      set.delete(fire);
      if (set.size === 0 && this.watchers.get(workspaceId) === set) this.watchers.delete(workspaceId);
      if (--this.count === 0) this.stop();
    };
    try {
      await this.listener;
    } catch (err) {
      close();
      throw err;
    }
    return { next: () => new Promise<void>((r) => (resolve = r)), close };
  }

  private wake(payload: string | undefined): void {
    // undefined: the connection was lost or came back, so a notice may have been missed: everyone looks again.
    const sets = payload === undefined ? [...this.watchers.values()] : [this.watchers.get(payload)].filter((s) => s !== undefined);
    for (const set of sets) for (const fire of set) fire();
  }

  private stop(): void {
    const listener = this.listener;
    this.listener = undefined;
    void listener?.then((l) => l.close()).catch(() => undefined);
  }
}
