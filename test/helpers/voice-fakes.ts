import type { PcmChunk, Recognition, SttEngine, SttStream, TtsEngine, VadEngine, VadEvent, VadOptions, VadStream } from '../../src/voice/engines/types';

/** A VAD that calls a frame speech when its RMS passes a threshold: speech_start after minSpeechMs of it, speech_end after minSilenceMs without. */
export class EnergyVad implements VadEngine {
  readonly name = 'test/energy';
  constructor(private readonly threshold = 500) {}
  open(o: VadOptions): VadStream {
    let voicedFrom: number | null = null;
    let lastVoiced = 0;
    let speaking = false;
    return {
      accept: (chunk: PcmChunk, atMs: number): VadEvent[] => {
        let sum = 0;
        for (const s of chunk.pcm) sum += s * s;
        const voiced = Math.sqrt(sum / Math.max(1, chunk.pcm.length)) > this.threshold;
        const endMs = atMs + (chunk.pcm.length / chunk.sampleRate) * 1000;
        const out: VadEvent[] = [];
        if (voiced) {
          voicedFrom ??= atMs;
          lastVoiced = endMs;
          if (!speaking && endMs - voicedFrom >= o.minSpeechMs) {
            speaking = true;
            out.push({ type: 'speech_start', atMs: voicedFrom });
          }
        } else {
          if (!speaking && voicedFrom !== null && atMs - lastVoiced > 60) voicedFrom = null; // a short burst: not speech
          if (speaking && endMs - lastVoiced >= o.minSilenceMs) {
            speaking = false;
            voicedFrom = null;
            out.push({ type: 'speech_end', atMs: lastVoiced });
          }
        }
        return out;
      },
      close: () => undefined,
    };
  }
}

/** An STT whose finals the test scripts, one per utterance in order ('' when the script has run out). */
export class ScriptedStt implements SttEngine {
  readonly name = 'test/scripted';
  readonly caps = { partials: false };
  readonly script: string[] = [];
  /** Milliseconds of audio each finished utterance was given. */
  readonly heardMs: number[] = [];
  open(): SttStream {
    let ms = 0;
    return {
      write: (c: PcmChunk) => void (ms += (c.pcm.length / c.sampleRate) * 1000),
      finish: async (): Promise<Recognition> => {
        this.heardMs.push(ms);
        return { text: this.script.shift() ?? '', final: true };
      },
      close: () => undefined,
    };
  }
}

/** A TTS that speaks a 440 Hz tone of 40 ms per character (8 kHz), in 100 ms chunks, stopping at once when aborted. */
export class ToneTts implements TtsEngine {
  readonly name = 'test/tone';
  readonly spoken: string[] = [];
  constructor(private readonly msPerChar = 40) {}
  async *synthesize(text: string, o: { signal: AbortSignal }): AsyncIterable<PcmChunk> {
    this.spoken.push(text);
    const total = Math.round((text.length * this.msPerChar * 8000) / 1000);
    for (let at = 0; at < total; at += 800) {
      if (o.signal.aborted) return;
      await new Promise((r) => setImmediate(r));
      const pcm = Int16Array.from({ length: Math.min(800, total - at) }, (_, i) => Math.round(Math.sin(((at + i) * 2 * Math.PI * 440) / 8000) * 8000));
      yield { pcm, sampleRate: 8000 };
    }
  }
}

/** A TTS that speaks at another rate than the line's (the Piper voice's 22.05 kHz): a fixed 1 kHz tone, in odd-sized chunks. */
export class WideTts implements TtsEngine {
  readonly name = 'test/wide';
  static readonly RATE = 22_050;
  /** Everything it spoke, whole, at RATE. */
  readonly audio = Int16Array.from({ length: Math.round(WideTts.RATE * 0.6) }, (_, i) => Math.round(Math.sin((i * 2 * Math.PI * 1000) / WideTts.RATE) * 8000));
  async *synthesize(_text: string, o: { signal: AbortSignal }): AsyncIterable<PcmChunk> {
    for (let at = 0; at < this.audio.length; at += 997) {
      if (o.signal.aborted) return;
      await new Promise((r) => setImmediate(r));
      yield { pcm: this.audio.slice(at, at + 997), sampleRate: WideTts.RATE };
    }
  }
}
