/**
 * The voice runtime's engine interfaces: one per kind (voice activity, speech-to-text, text-to-speech, the agent's
 * model), so an engine is a configuration choice. Audio between stages is 16-bit signed PCM, mono, at the rate the
 * chunk names; each engine resamples what it needs itself (the telephone line is 8 kHz, Whisper and Silero want
 * 16 kHz, the Piper voice speaks at 22.05 kHz).
 */

/** Mono 16-bit PCM at sampleRate. */
export interface PcmChunk {
  pcm: Int16Array;
  sampleRate: number;
}

/** Voice activity: speech began or ended, at atMs (milliseconds since the stream's start, on the audio's clock). */
export interface VadEvent {
  type: 'speech_start' | 'speech_end';
  atMs: number;
}

export interface VadOptions {
  /** Speech shorter than this is not speech (a click, a cough). */
  minSpeechMs: number;
  /** Silence this long ends a stretch of speech. */
  minSilenceMs: number;
}

/** One stream's detector: fed every inbound frame in order. */
export interface VadStream {
  /** Feeds a chunk that starts at atMs; returns what it detected, in order (often nothing). */
  accept(chunk: PcmChunk, atMs: number): VadEvent[];
  close(): void;
}

export interface VadEngine {
  readonly name: string;
  open(options: VadOptions): VadStream;
}

/** Text recognised from one stretch of speech. */
export interface Recognition {
  text: string;
  /** false for a partial (may still change), true for the utterance's final text. */
  final: boolean;
}

export interface SttOptions {
  /** BCP 47, e.g. en-US. */
  language: string;
  /** Called with partial results while the caller speaks, where the engine has them (caps.partials). */
  onPartial?: (partial: Recognition) => void;
}

/** One utterance (or one turn) of recognition: write its audio, then finish() for the final text. */
export interface SttStream {
  write(chunk: PcmChunk): void;
  /** The utterance ended: the final text of everything written. */
  finish(signal?: AbortSignal): Promise<Recognition>;
  /** Drops the utterance (barge-in cancelled, call ended). */
  close(): void;
}

export interface SttEngine {
  readonly name: string;
  readonly caps: { partials: boolean };
  open(options: SttOptions): SttStream;
}

export interface TtsOptions {
  /** The engine's own voice id; undefined means the engine's default. */
  voice?: string;
  /** Aborting stops synthesis at once: no chunk is yielded after it. */
  signal: AbortSignal;
}

export interface TtsEngine {
  readonly name: string;
  /** Synthesises one sentence or clause, yielding audio as it is ready (first chunk as early as the engine can). */
  synthesize(text: string, options: TtsOptions): AsyncIterable<PcmChunk>;
}

/** One message of the conversation the agent's model sees. */
export interface TurnMessage {
  role: 'system' | 'assistant' | 'user' | 'tool';
  content: string;
  /** On a tool message: the call it answers. */
  toolCallId?: string;
}

/** A tool the model may call, described by its JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What the model streams: text (spoken as it comes, by sentence) or a tool call. */
export type TurnDelta = { type: 'text'; text: string } | { type: 'tool_call'; id: string; name: string; arguments: string };

export interface AgentModel {
  readonly name: string;
  turn(messages: TurnMessage[], tools: ToolSpec[], signal: AbortSignal): AsyncIterable<TurnDelta>;
}

/** Engines that hold processes or native handles: start once at boot (off the call path), stop at shutdown. */
export interface EngineLifecycle {
  ready(): Promise<void>;
  close(): Promise<void>;
}
