import { randomBytes } from 'node:crypto';
import { TERMINAL_STATUSES, type CallStatus } from '../provider';
import { callbackForm, fetchTwiml, postCallback, type CallbackExtras } from './callbacks';
import type { Ledger, LedgerEntry, SimCall } from './ledger';
import type { Step } from './rules';

/** A new call sid: CA and 32 hex digits, like Twilio's. */
export const newCallSid = () => `CA${randomBytes(16).toString('hex')}`;

/** How the simulator reaches receivers. */
export interface PlayerContext {
  ledger: Ledger;
  accountSid: string;
  authToken: string;
  speed: number;
  /** Called after every change worth keeping (a status, a callback sent): the simulator saves its state. */
  changed?: () => void;
}

/** A call being played out: its scripted callbacks fire on timers, scaled down by speed. */
export class CallPlayer {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly legs = new Map<number, SimCall>();
  // Callbacks of one placement go out one after the other, in the order they fired.
  private chain: Promise<void> = Promise.resolve();
  private markEnded!: () => void;
  /** Resolves when the call and all its legs have reached a terminal status. */
  readonly ended = new Promise<void>((resolve) => (this.markEnded = resolve));

  constructor(
    private readonly ctx: PlayerContext,
    private readonly entry: LedgerEntry,
    private readonly root: SimCall,
    /** Legs already dialled (a restored call). */
    legs: SimCall[] = [],
  ) {
    for (const leg of legs) this.legs.set(leg.leg ?? this.legs.size + 1, leg);
    if (!this.active) this.markEnded();
  }

  /**
   * Schedules the script's steps from the first not played yet, each at its time from the call's creation: a call
   * resumed after the simulator was down plays the steps it missed at once, in order, then the rest on time.
   */
  play(script: Step[]): void {
    const elapsed = Date.now() - Date.parse(this.root.createdAt);
    for (const step of script.slice(this.root.played ?? 0)) {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          this.root.played = (this.root.played ?? 0) + 1;
          this.fire(step);
        },
        Math.max(0, step.at / this.ctx.speed - elapsed),
      );
      this.timers.add(timer);
    }
  }

  /** Whether any call of this placement can still change. */
  get active(): boolean {
    return [this.root, ...this.legs.values()].some((c) => !TERMINAL_STATUSES.has(c.status));
  }

  /** Ends the placement now (cancel or hang-up): unanswered calls end canceled, answered ones completed. */
  end(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const call of [...this.legs.values(), this.root]) {
      if (TERMINAL_STATUSES.has(call.status)) continue;
      if (call.answeredAt === null) this.emit(call, 'canceled', {});
      else this.emit(call, 'completed', { sipResponseCode: 200, durationSeconds: Math.round((Date.now() - call.answeredAt) / 1000) });
    }
  }

  /** Stops playing without sending anything more (simulator shutdown). */
  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Resolves once every callback fired so far has been delivered (or failed). */
  settled(): Promise<void> {
    return this.chain;
  }

  private fire(step: Step): void {
    const call = step.leg === 0 ? this.root : this.leg(step.leg);
    if (TERMINAL_STATUSES.has(call.status)) return;
    const extras: CallbackExtras = { answeredBy: step.answeredBy, sipResponseCode: step.sipResponseCode, durationSeconds: step.durationSeconds };
    if (step.transcript) {
      extras.transcript = step.transcript;
      // Twilio's shape (https, under the account); the simulator serves no audio.
      extras.recordingUrl = `https://api.twilio.com/2010-04-01/Accounts/${this.ctx.accountSid}/Recordings/RE${call.sid.slice(2)}`;
    }
    this.emit(call, step.status, extras);
    // Like Twilio on the answer: the call's Url is asked what to do (after the answer's callback is delivered).
    if (step.fetchTwiml) {
      this.chain = this.chain.then(async () => {
        this.entry.twiml = await fetchTwiml(this.entry.url, this.ctx.authToken, callbackForm(this.ctx.accountSid, call, 'in-progress', call.nextSequence, {}));
        this.ctx.changed?.();
      });
    }
  }

  private leg(n: number): SimCall {
    let call = this.legs.get(n);
    if (!call) {
      // A transfer leg rings the agent's transfer number from the lead's number (plura-observed.md).
      call = {
        sid: newCallSid(),
        parentSid: this.root.sid,
        to: this.entry.transferTo ?? '',
        from: this.root.to,
        status: 'queued',
        answeredAt: null,
        createdAt: new Date().toISOString(),
        nextSequence: 0,
        leg: n,
      };
      this.legs.set(n, call);
      this.ctx.ledger.addLeg(this.entry, call);
    }
    return call;
  }

  private emit(call: SimCall, status: CallStatus, extras: CallbackExtras): void {
    if (status === 'in-progress') call.answeredAt = Date.now();
    if (extras.answeredBy) call.answeredBy = extras.answeredBy;
    if (TERMINAL_STATUSES.has(status)) {
      call.endedAt = new Date().toISOString();
      call.durationSeconds = extras.durationSeconds ?? 0;
    }
    this.ctx.ledger.setStatus(call.sid, status);
    if (!this.active) this.markEnded();
    const sequence = call.nextSequence++;
    this.ctx.changed?.();
    const url = this.entry.statusCallback;
    if (!url) return;
    const form = callbackForm(this.ctx.accountSid, call, status, sequence, extras);
    this.chain = this.chain.then(async () => {
      const responseStatus = await postCallback(url, this.ctx.authToken, form);
      this.entry.callbacks.push({ callSid: call.sid, status, sequence, responseStatus });
      this.ctx.changed?.();
    });
  }
}
