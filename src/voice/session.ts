import { Resampler } from './audio/resample';
import type { AgentModel, PcmChunk, SttEngine, SttStream, TtsEngine, TurnMessage, VadEngine, VadStream } from './engines/types';
import type { CallTurn } from './db/turns';
import type { MediaStream, StreamSession } from './stream';
import { saysEndPhrase, type VoiceSettings } from './settings';

export type SessionState = 'LISTENING' | 'USER_SPEAKING' | 'THINKING' | 'SPEAKING';
export type EndedReason = 'agent_ended' | 'callee_hung_up' | 'silence_timeout' | 'max_duration' | 'stream_closed';

/** What the conversation reports beyond the stream: its durable record and the call's lifecycle. */
export interface SessionSinks {
  /** Writes a turn (again, as it grows); awaited in order, failures logged by the caller. */
  turn(turn: CallTurn): Promise<void>;
  /** A milestone for the call's workflow (no audio, no text). */
  milestone(m: { kind: 'stream_started' | 'first_agent_audio' } | { kind: 'ended'; reason: EndedReason }): void;
  /** Hangs the call up through the provider (the status callbacks then close the record). */
  hangUp(reason: EndedReason): Promise<void>;
  log(message: string, fields?: Record<string, unknown>): void;
}

export interface SessionEngines {
  vad: VadEngine;
  stt: SttEngine;
  tts: TtsEngine;
  model: AgentModel;
}

/** The line a resumed stream opens with (the callee heard nothing for a moment). */
export const RESUME_LINE = 'Sorry, I lost you for a second.';
export const REPROMPT_LINE = 'Are you still there?';
export const SILENCE_GOODBYE = 'It seems we got disconnected. Goodbye!';
const MAX_DURATION_GOODBYE = 'I have to end the call here. Thank you, goodbye!';
/** Keypad digits the callee pressed reach the agent's turn as this text. */
export const dtmfText = (digits: string) => `[keypad: ${digits}]`;

const PREROLL_MS = 300;
/** The telephone line's rate: what comes in and what goes out. */
const LINE_RATE = 8000;
/**
 * The rate the callee's audio is heard at: Silero and Whisper want 16 kHz. The line is resampled to it once, here, for
 * voice activity and recognition alike (one stream-long Resampler, so no chunk boundary ever clicks); an engine given
 * its own rate passes it through.
 */
export const HEARING_RATE = 16_000;
const DTMF_GAP_MS = 800;

/** Cuts streamed text into sentences as they complete: the first goes to synthesis before the rest is written. */
class SentenceSplitter {
  private buffer = '';
  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    for (let m = /[.!?…]+\s+/.exec(this.buffer); m; m = /[.!?…]+\s+/.exec(this.buffer)) {
      const sentence = this.buffer.slice(0, m.index + m[0].length).trim();
      this.buffer = this.buffer.slice(m.index + m[0].length);
      if (sentence) out.push(sentence);
    }
    return out;
  }
  /** What is left once the model has finished. */
  end(): string[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest ? [rest] : [];
  }
}

interface Clause {
  text: string;
  mark: string;
  heard: boolean;
}

interface AgentTurn {
  index: number;
  startMs: number;
  clauses: Clause[];
  abort: AbortController;
  /** The model has finished writing and every clause has been queued. */
  written: boolean;
  interrupted: boolean;
  /** Spoken text that ends the call once heard (an end phrase, a reprompt's goodbye). */
  endsCall: EndedReason | null;
}

/**
 * One stream's conversation: LISTENING → USER_SPEAKING → THINKING → SPEAKING (→ LISTENING), driven by voice activity,
 * recognition finals, the model's deltas and the marks Twilio echoes. Every transition is kept with its time (ms since
 * the stream's start). A barge-in (callee speech while the agent talks, when interruptible) sends `clear`, aborts the
 * model and synthesis through the turn's one AbortController, and stores only the clauses whose mark came back.
 */
export class CallSession implements StreamSession {
  state: SessionState = 'LISTENING';
  readonly transitions: { state: SessionState; atMs: number }[] = [{ state: 'LISTENING', atMs: 0 }];
  private readonly vad: VadStream;
  private stt: SttStream | undefined;
  private readonly preroll: { pcm: Int16Array; atMs: number }[] = [];
  private readonly hearing = new Resampler(LINE_RATE, HEARING_RATE);
  private readonly history: TurnMessage[] = [];
  private nextIndex: number;
  private readonly offset: number;
  private agent: AgentTurn | undefined;
  private calleeStart = 0;
  private silenceTimer: NodeJS.Timeout | undefined;
  private reprompted = false;
  private readonly maxTimer: NodeJS.Timeout;
  private keys = { digits: '', timer: undefined as NodeJS.Timeout | undefined, startMs: 0 };
  private firstAudio = false;
  private ending = false;
  private closed = false;
  /** Turn writes go out one after the other, in order. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly stream: MediaStream,
    private readonly settings: VoiceSettings,
    private readonly engines: SessionEngines,
    private readonly sinks: SessionSinks,
    /** Turns stored by an earlier stream of this call (a resumed stream goes on from them). */
    stored: CallTurn[] = [],
  ) {
    this.vad = engines.vad.open({ minSpeechMs: settings.minSpeechMs, minSilenceMs: settings.endOfSpeechMs });
    this.history.push({ role: 'system', content: settings.prompt });
    for (const t of stored) if (t.text) this.history.push({ role: t.speaker === 'agent' ? 'assistant' : 'user', content: t.text });
    this.nextIndex = stored.length ? Math.max(...stored.map((t) => t.index)) + 1 : 0;
    this.offset = stored.length ? Math.max(...stored.map((t) => t.endMs)) : 0;
    this.maxTimer = setTimeout(() => this.endCall('max_duration', MAX_DURATION_GOODBYE), Math.max(0, settings.maxDurationS * 1000 - this.offset));
    sinks.milestone({ kind: 'stream_started' });
    const opening = stream.resume && stored.length ? RESUME_LINE : settings.firstMessage;
    if (opening) this.say([opening], saysEndPhrase(opening, settings.endCallPhrases) ? 'agent_ended' : null);
    else this.listen();
  }

  /** Milliseconds in the call (a resumed stream's clock goes on from the stored turns). */
  private now(): number {
    return this.offset + this.stream.now();
  }

  private to(state: SessionState): void {
    if (this.state === state) return;
    this.state = state;
    this.transitions.push({ state, atMs: Math.round(this.now()) });
  }

  // ---- input ----

  /** 8 kHz audio from the line, heard at HEARING_RATE by voice activity and recognition. */
  media(line: Int16Array, atMs: number): void {
    if (this.closed) return;
    const pcm = this.hearing.push(line);
    const chunk: PcmChunk = { pcm, sampleRate: HEARING_RATE };
    const at = this.offset + atMs;
    if (this.stt) this.stt.write(chunk);
    else {
      this.preroll.push({ pcm, atMs: at });
      while (this.preroll.length && this.preroll[0]!.atMs < at - PREROLL_MS) this.preroll.shift();
    }
    for (const event of this.vad.accept(chunk, atMs)) {
      if (event.type === 'speech_start') this.speechStarted(this.offset + event.atMs);
      else this.speechEnded(this.offset + event.atMs);
    }
  }

  private speechStarted(atMs: number): void {
    if (this.ending) return;
    if (this.state === 'SPEAKING' || (this.agent && !this.agent.written)) {
      if (!this.settings.interruptible) return;
      this.bargeIn();
    }
    this.clearSilence();
    this.calleeStart = atMs;
    this.stt?.close();
    this.stt = this.engines.stt.open({ language: this.settings.language });
    // The speech began before the detector was sure: what it heard from the onset on goes too.
    for (const p of this.preroll) if (p.atMs >= atMs - PREROLL_MS) this.stt.write({ pcm: p.pcm, sampleRate: HEARING_RATE });
    this.preroll.length = 0;
    this.to('USER_SPEAKING');
  }

  private speechEnded(atMs: number): void {
    const stt = this.stt;
    if (!stt || this.state !== 'USER_SPEAKING') return;
    this.stt = undefined;
    this.to('THINKING');
    const startMs = this.calleeStart;
    stt.finish().then(
      (r) => {
        stt.close();
        if (this.closed || this.state !== 'THINKING') return;
        const text = r.text.trim();
        if (!text) return this.listen();
        this.calleeTurn(text, startMs, atMs);
      },
      (err: Error) => {
        this.sinks.log('recognition failed', { err: err.message });
        if (this.state === 'THINKING') this.listen();
      },
    );
  }

  dtmf(digit: string, atMs: number): void {
    if (this.closed || this.ending) return;
    if (!this.keys.digits) this.keys.startMs = this.offset + atMs;
    this.keys.digits += digit;
    clearTimeout(this.keys.timer);
    this.clearSilence();
    this.keys.timer = setTimeout(() => {
      const digits = this.keys.digits;
      this.keys.digits = '';
      if (this.agent && !this.agent.written) return; // the agent is still answering: keys then are dropped
      if (this.state === 'SPEAKING') {
        if (!this.settings.interruptible) return;
        this.bargeIn();
      }
      this.calleeTurn(dtmfText(digits), this.keys.startMs, this.now());
    }, DTMF_GAP_MS);
  }

  mark(name: string): void {
    const turn = this.agent;
    if (!turn) return;
    const clause = turn.clauses.find((c) => c.mark === name);
    if (!clause || clause.heard) return;
    clause.heard = true;
    if (turn.written && turn.clauses.every((c) => c.heard)) this.agentFinished(turn);
  }

  ended(how: 'stop' | 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.maxTimer);
    this.clearSilence();
    clearTimeout(this.keys.timer);
    this.agent?.abort.abort();
    if (this.agent && !this.ending) this.storeAgent(this.agent, true);
    this.stt?.close();
    this.vad.close();
    if (!this.ending) this.sinks.milestone({ kind: 'ended', reason: how === 'stop' ? 'callee_hung_up' : 'stream_closed' });
  }

  // ---- turns ----

  private calleeTurn(text: string, startMs: number, endMs: number): void {
    const index = this.nextIndex++;
    this.write({ index, speaker: 'callee', text, startMs, endMs, interrupted: false });
    this.history.push({ role: 'user', content: text });
    this.reprompted = false;
    this.reply();
  }

  /** The model's answer to the conversation so far, spoken sentence by sentence as it is written. */
  private reply(): void {
    this.to('THINKING');
    const turn = this.newAgentTurn(null);
    const splitter = new SentenceSplitter();
    (async () => {
      for await (const delta of this.engines.model.turn(this.history, [], turn.abort.signal)) {
        if (turn.abort.signal.aborted) return;
        if (delta.type === 'text') for (const s of splitter.push(delta.text)) this.queueClause(turn, s);
      }
      if (turn.abort.signal.aborted) return;
      for (const s of splitter.end()) this.queueClause(turn, s);
      this.written(turn);
    })().catch((err: Error) => {
      if (turn.abort.signal.aborted) return;
      this.sinks.log('agent model failed', { err: err.message });
      this.written(turn);
    });
  }

  /** Speaks fixed lines as one agent turn. */
  private say(lines: string[], endsCall: EndedReason | null): void {
    const turn = this.newAgentTurn(endsCall);
    for (const line of lines) this.queueClause(turn, line);
    this.written(turn);
  }

  private newAgentTurn(endsCall: EndedReason | null): AgentTurn {
    this.agent?.abort.abort();
    const turn: AgentTurn = {
      index: this.nextIndex++,
      startMs: this.now(),
      clauses: [],
      abort: new AbortController(),
      written: false,
      interrupted: false,
      endsCall,
    };
    this.agent = turn;
    this.synthesis = Promise.resolve();
    return turn;
  }

  private synthesis: Promise<void> = Promise.resolve();

  /** Synthesises a clause after the ones before it, pushing its audio as it comes, then its mark. */
  private queueClause(turn: AgentTurn, text: string): void {
    const clause: Clause = { text, mark: `${turn.index}:${turn.clauses.length}`, heard: false };
    turn.clauses.push(clause);
    if (!turn.endsCall && saysEndPhrase(text, this.settings.endCallPhrases)) turn.endsCall = 'agent_ended';
    const signal = turn.abort.signal;
    this.synthesis = this.synthesis.then(async () => {
      if (signal.aborted) return;
      // The engine's rate (22.05 kHz for the Piper voice) to the line's, by one Resampler for the whole clause: its
      // filter runs across chunk boundaries, so the joins never click.
      let toLine: Resampler | undefined;
      const play = (pcm: Int16Array) => {
        if (!pcm.length) return;
        this.stream.play(pcm);
        if (this.state !== 'SPEAKING') this.to('SPEAKING');
        if (!this.firstAudio) {
          this.firstAudio = true;
          this.sinks.milestone({ kind: 'first_agent_audio' });
        }
      };
      try {
        for await (const chunk of this.engines.tts.synthesize(text, { voice: this.settings.voice.voiceId ?? undefined, signal })) {
          if (signal.aborted) return;
          toLine ??= new Resampler(chunk.sampleRate, LINE_RATE);
          if (chunk.sampleRate !== toLine.fromRate) throw new Error(`speech changed rate mid-utterance (${toLine.fromRate} → ${chunk.sampleRate} Hz)`);
          play(toLine.push(chunk.pcm));
        }
        if (signal.aborted) return;
        if (toLine) play(toLine.flush());
      } catch (err) {
        if (signal.aborted) return;
        this.sinks.log('speech synthesis failed', { err: (err as Error).message });
      }
      if (!signal.aborted) this.stream.mark(clause.mark);
    });
  }

  private written(turn: AgentTurn): void {
    this.synthesis = this.synthesis.then(() => {
      if (turn.abort.signal.aborted) return;
      turn.written = true;
      this.storeAgent(turn, false);
      this.history.push({ role: 'assistant', content: turn.clauses.map((c) => c.text).join(' ') });
      if (!turn.clauses.length || turn.clauses.every((c) => c.heard)) this.agentFinished(turn);
    });
  }

  /** Every clause was heard: the callee's turn, or the end of the call. */
  private agentFinished(turn: AgentTurn): void {
    if (this.agent !== turn) return;
    this.agent = undefined;
    this.storeAgent(turn, false, this.now());
    if (turn.endsCall) return void this.hangUp(turn.endsCall);
    this.listen();
  }

  private bargeIn(): void {
    const turn = this.agent;
    if (!turn) return;
    turn.abort.abort();
    turn.interrupted = true;
    this.stream.clear();
    this.agent = undefined;
    this.storeAgent(turn, true, this.now());
    // The model's context keeps only what the callee heard.
    const heard = turn.clauses.filter((c) => c.heard).map((c) => c.text);
    const last = this.history[this.history.length - 1];
    if (turn.written && last?.role === 'assistant') this.history.pop();
    if (heard.length) this.history.push({ role: 'assistant', content: heard.join(' ') });
  }

  private storeAgent(turn: AgentTurn, interrupted: boolean, endMs = this.now()): void {
    const clauses = interrupted ? turn.clauses.filter((c) => c.heard) : turn.clauses;
    this.write({ index: turn.index, speaker: 'agent', text: clauses.map((c) => c.text).join(' '), startMs: turn.startMs, endMs, interrupted });
  }

  private write(turn: CallTurn): void {
    this.writes = this.writes
      .then(() => this.sinks.turn(turn))
      .catch((err: Error) => this.sinks.log('turn not stored', { err: err.message, index: turn.index }));
  }

  /** Resolves once every turn so far is stored. */
  flushed(): Promise<void> {
    return this.writes;
  }

  // ---- silence, ending ----

  private listen(): void {
    this.to('LISTENING');
    this.clearSilence();
    if (this.ending) return;
    this.silenceTimer = setTimeout(() => {
      if (this.state !== 'LISTENING') return;
      if (!this.reprompted) {
        this.reprompted = true;
        this.say([REPROMPT_LINE], null);
      } else this.endCall('silence_timeout', SILENCE_GOODBYE);
    }, this.settings.silenceTimeoutS * 1000);
  }

  private clearSilence(): void {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
  }

  private endCall(reason: EndedReason, goodbye: string): void {
    if (this.ending || this.closed) return;
    if (this.agent) this.bargeIn();
    this.say([goodbye], reason);
  }

  private async hangUp(reason: EndedReason): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    clearTimeout(this.maxTimer);
    this.clearSilence();
    this.sinks.milestone({ kind: 'ended', reason });
    await this.writes;
    try {
      await this.sinks.hangUp(reason);
    } catch (err) {
      this.sinks.log('hang-up failed', { err: (err as Error).message });
    }
    this.stream.close(reason);
  }
}
