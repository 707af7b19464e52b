import type { VoiceCall } from './db/streams';

/** One accepted media stream: what the session reads of it and how it speaks on it. */
export interface MediaStream {
  readonly call: VoiceCall;
  readonly streamSid: string;
  readonly callSid: string;
  readonly resume: boolean;
  /** performance.now() when `start` arrived: the session's clock starts there. */
  readonly startedAt: number;
  /** Milliseconds since start, on this process's monotonic clock. */
  now(): number;
  /** Queues 8 kHz PCM for the callee (paced in real time). */
  play(pcm: Int16Array): void;
  /** Queues a mark after the audio so far; Twilio echoes it once that audio has played. */
  mark(name: string): void;
  /** Drops our queued audio and tells Twilio to drop its buffer; returns the marks that were never sent. */
  clear(): string[];
  /** Milliseconds of audio queued here and not yet sent. */
  readonly queuedMs: number;
  /** Ends the stream (the call goes on with the TwiML after <Connect> unless it was hung up). */
  close(endedReason?: string): void;
}

/** A stream's conversation: fed what Twilio sends, in order. */
export interface StreamSession {
  media(pcm: Int16Array, atMs: number): void;
  dtmf(digit: string, atMs: number): void;
  mark(name: string): void;
  /** Twilio sent stop, or the socket closed. */
  ended(how: 'stop' | 'closed'): void;
}

/** Makes a stream's session (it may read the call's settings first: messages meanwhile wait, in order). */
export type SessionFactory = (stream: MediaStream) => StreamSession | Promise<StreamSession>;
