import { FRAME_BYTES, FRAME_MS } from './protocol';

/** What the pacer sends: one 20 ms μ-law frame, or a mark once every frame queued before it has gone out. */
export type PacedItem = { kind: 'media'; mulaw: Buffer } | { kind: 'mark'; name: string };

/**
 * Outbound audio paced in real time: a 20 ms μ-law frame per tick, each tick scheduled from the pacer's start (not
 * from the previous tick), so timer lateness never accumulates into drift. A late tick sends the frames it owes (at
 * most a few: never a burst of seconds), and `lead` frames go out ahead so Twilio's buffer never runs dry. Marks queue
 * in line with the audio and go out right after the frame before them. clear() drops everything not yet sent.
 */
export class FramePacer {
  private readonly queue: PacedItem[] = [];
  private partial: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private sent = 0;
  private closed = false;

  constructor(
    private readonly send: (item: PacedItem) => void,
    private readonly opts: { lead?: number; now?: () => number; maxCatchUp?: number } = {},
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : performance.now();
  }

  /** Queues μ-law audio (any length; cut into 160-byte frames, the last one padded with silence on flush). */
  push(mulaw: Buffer): void {
    if (this.closed) return;
    let data = this.partial.length ? Buffer.concat([this.partial, mulaw]) : mulaw;
    while (data.length >= FRAME_BYTES) {
      this.queue.push({ kind: 'media', mulaw: Buffer.from(data.subarray(0, FRAME_BYTES)) });
      data = data.subarray(FRAME_BYTES);
    }
    this.partial = Buffer.from(data);
    this.kick();
  }

  /** Queues a mark after the audio pushed so far (its last partial frame padded with μ-law silence). */
  mark(name: string): void {
    if (this.closed) return;
    this.flushPartial();
    this.queue.push({ kind: 'mark', name });
    this.kick();
  }

  /** Drops every frame and mark not sent yet; returns the names of the dropped marks. */
  clear(): string[] {
    const dropped = this.queue.filter((i): i is Extract<PacedItem, { kind: 'mark' }> => i.kind === 'mark').map((i) => i.name);
    this.queue.length = 0;
    this.partial = Buffer.alloc(0);
    this.idle();
    return dropped;
  }

  /** Milliseconds of audio queued and not yet sent. */
  get queuedMs(): number {
    return this.queue.filter((i) => i.kind === 'media').length * FRAME_MS;
  }

  close(): void {
    this.closed = true;
    this.clear();
  }

  private flushPartial(): void {
    if (!this.partial.length) return;
    const frame = Buffer.alloc(FRAME_BYTES, 0xff);
    this.partial.copy(frame);
    this.queue.push({ kind: 'media', mulaw: frame });
    this.partial = Buffer.alloc(0);
  }

  private kick(): void {
    if (this.timer || this.closed || !this.queue.length) return;
    this.startedAt = this.now();
    this.sent = 0;
    this.tick();
  }

  private idle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    const lead = this.opts.lead ?? 2;
    const owed = Math.floor((this.now() - this.startedAt) / FRAME_MS) + 1 + lead;
    // After a long stall, skip ahead instead of sending everything missed at once.
    const maxCatchUp = this.opts.maxCatchUp ?? 5;
    if (owed - this.sent > maxCatchUp + lead) this.sent = owed - maxCatchUp - lead;
    while (this.queue.length && this.sent < owed) {
      const item = this.queue.shift()!;
      this.send(item);
      if (item.kind === 'media') this.sent++;
    }
    // Marks right after the last frame go out with it.
    while (this.queue[0]?.kind === 'mark') this.send(this.queue.shift()!);
    if (!this.queue.length) return;
    const nextAt = this.startedAt + (this.sent - lead) * FRAME_MS;
    this.timer = setTimeout(() => this.tick(), Math.max(0, nextAt - this.now()));
  }
}
