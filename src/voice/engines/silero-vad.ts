/**
 * Voice activity by Silero VAD v5, run in-process by sherpa-onnx-node. The model wants 16 kHz: other rates (the
 * line's 8 kHz) are resampled first. speech_start is reported once Silero has heard minSpeechMs of speech, dated at
 * the speech's onset; speech_end once minSilenceMs of silence followed, dated at the speech's end.
 */
import { existsSync } from 'node:fs';
import { Resampler, toFloat32 } from '../audio/resample';
import { sherpa, type SherpaVad } from './sherpa';
import type { PcmChunk, VadEngine, VadEvent, VadOptions, VadStream } from './types';

const RATE = 16_000;
/** Silero v5's window at 16 kHz. */
const WINDOW = 512;

export interface SileroVadSettings {
  /** silero_vad.onnx (v5). */
  model: string;
  /** Speech probability above which a window is speech (Silero's default 0.5). */
  threshold?: number;
  /** A stretch of speech longer than this is cut (seconds; default 30). */
  maxSpeechSeconds?: number;
}

export class SileroVadEngine implements VadEngine {
  readonly name = 'local/silero-vad-v5';

  constructor(private readonly settings: SileroVadSettings) {
    if (!existsSync(settings.model)) throw new Error(`the Silero VAD model ${settings.model} does not exist (run the voice engines' set-up)`);
  }

  open(options: VadOptions): VadStream {
    const vad = new (sherpa().Vad)(
      {
        sileroVad: {
          model: this.settings.model,
          threshold: this.settings.threshold ?? 0.5,
          minSilenceDuration: options.minSilenceMs / 1000,
          minSpeechDuration: options.minSpeechMs / 1000,
          windowSize: WINDOW,
          maxSpeechDuration: this.settings.maxSpeechSeconds ?? 30,
        },
        sampleRate: RATE,
        numThreads: 1,
        provider: 'cpu',
        debug: false,
      },
      60,
    );
    return new SileroVadStream(vad, options);
  }
}

class SileroVadStream implements VadStream {
  private resampler: Resampler | undefined;
  /** The stream's clock: atMs of the first chunk, and 16 kHz samples fed since. */
  private originMs: number | undefined;
  private fed = 0;
  private speaking = false;
  private closed = false;

  constructor(
    private readonly vad: SherpaVad,
    private readonly options: VadOptions,
  ) {}

  accept(chunk: PcmChunk, atMs: number): VadEvent[] {
    if (this.closed) throw new Error('the VAD stream is closed');
    this.originMs ??= atMs;
    if (!this.resampler || this.resampler.fromRate !== chunk.sampleRate) this.resampler = new Resampler(chunk.sampleRate, RATE);
    const pcm = this.resampler.push(chunk.pcm);
    const events: VadEvent[] = [];
    if (!pcm.length) return events;
    this.vad.acceptWaveform(toFloat32(pcm));
    this.fed += pcm.length;
    const msAt = (sample: number) => this.originMs! + (sample * 1000) / RATE;
    if (!this.speaking && this.vad.isDetected()) {
      this.speaking = true;
      // Silero confirms speech after minSpeechMs of it (and one window of look-behind): date the event at the onset.
      events.push({ type: 'speech_start', atMs: Math.max(this.originMs, msAt(this.fed) - this.options.minSpeechMs - (WINDOW * 1000) / RATE) });
    }
    while (!this.vad.isEmpty()) {
      const segment = this.vad.front(false);
      this.vad.pop();
      if (!this.speaking) events.push({ type: 'speech_start', atMs: msAt(segment.start) }); // a segment shorter than one chunk
      this.speaking = false;
      events.push({ type: 'speech_end', atMs: msAt(segment.start + segment.samples.length) });
    }
    if (!this.speaking && this.vad.isDetected()) {
      this.speaking = true;
      events.push({ type: 'speech_start', atMs: Math.max(this.originMs, msAt(this.fed) - this.options.minSpeechMs - (WINDOW * 1000) / RATE) });
    }
    return events;
  }

  close(): void {
    this.closed = true;
    this.vad.reset();
  }
}
