// The chat turns' writer: a turn's reply goes back to the user at once and its messages
// reach Postgres through an ordinary activity right after, one batch at a time, in seq order.
import { condition, deprecatePatch, proxyActivities } from '@temporalio/workflow';
import type { ChatActivities, ChatTurnRecord } from '../../activities/chat/chat';
import type { ChatMessage } from './chat-messages';

// No attempt limit: a turn the user saw must reach Postgres, however long the database is away.
const store = proxyActivities<ChatActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

const MAX_BATCH = 50;

/** Turns answered but not yet stored, written one batch at a time, oldest first (the store keeps the newest state). */
export class TurnWriter {
  private pending: ChatTurnRecord[] = [];
  private inFlight: ChatTurnRecord[] = [];
  private busy: Promise<void> | undefined;
  private now = false;
  private lastAdded = 0;

  /**
   * delayMs: how long turns gather before a write. A write's completion is a workflow task of its own; right after
   * a reply it would hold up the user's next message, so writes wait for a pause (or the run's close) instead.
   */
  constructor(private readonly delayMs: number) {}

  /** Queues a turn (its state is a snapshot: later turns change the live one) and starts a write unless one runs. */
  add(turn: ChatTurnRecord): void {
    this.pending.push({ ...turn, state: JSON.parse(JSON.stringify(turn.state)) });
    this.lastAdded = Date.now();
    this.kick();
  }

  /** Messages answered but not yet stored, oldest first (a reconnect replays them along with Postgres' rows). */
  unsaved(): ChatMessage[] {
    return [...this.inFlight, ...this.pending].flatMap((t) => t.messages as ChatMessage[]);
  }

  /** Resolves once every queued turn is stored. */
  async drain(): Promise<void> {
    this.now = true;
    while (this.busy) await this.busy;
  }

  private kick(): void {
    this.busy ??= this.write().finally(() => {
      this.busy = undefined;
      // Turns answered while the batch was written.
      if (this.pending.length) this.kick();
    });
  }

  // One batch per call (turns answered meanwhile wait for the next one): every message and the state after the last.
  private async write(): Promise<void> {
    await condition(() => this.now, this.delayMs);
    // The write waits until no turn came for delayMs (a burst of turns is never interrupted by one), or for MAX_BATCH
    // turns. Deprecated patch chat-write-after-pause (docs/workflow-versioning.md): its marker where patched() wrote it.
    while (!this.now && this.pending.length < MAX_BATCH) {
      deprecatePatch('chat-write-after-pause');
      const left = this.lastAdded + this.delayMs - Date.now();
      if (left <= 0) break;
      await condition(() => this.now || this.pending.length >= MAX_BATCH, left);
    }
    if (!this.pending.length) return;
    this.inFlight = this.pending;
    this.pending = [];
    await store.chatSaveTurn({
      ...this.inFlight.at(-1)!,
      messages: this.inFlight.flatMap((t) => t.messages),
      captures: this.inFlight.flatMap((t) => t.captures),
      skipped: this.inFlight.flatMap((t) => t.skipped),
      automations: this.inFlight.flatMap((t) => t.automations ?? []),
    });
    this.inFlight = [];
  }
}
