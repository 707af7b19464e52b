/**
 * Speech synthesis by a Piper (VITS) voice, en_US-joe-medium by default, run in-process by sherpa-onnx-node through
 * its asynchronous call (generateAsync: synthesis runs off the event loop; the synchronous generate() would stall
 * every call's audio for the whole synthesis). sherpa cuts the text into sentences and reports each as it is done,
 * so the first chunk comes after the first sentence. Aborting stops the synthesis at its next callback and yields
 * nothing more. One synthesis runs at a time per engine (a queue): the native handle is not shared between threads.
 */
import { existsSync } from 'node:fs';
import { fromFloat32 } from '../audio/resample';
import { ChunkQueue } from './chunk-queue';
import { sherpa, type SherpaTts } from './sherpa';
import type { EngineLifecycle, PcmChunk, TtsEngine, TtsOptions } from './types';

export interface PiperTtsSettings {
  /** The Piper voice's .onnx, with sherpa's metadata (the set-up writes it). */
  model: string;
  /** The voice's tokens.txt (symbol id per line). */
  tokens: string;
  /** espeak-ng-data (the phonemizer's data). */
  espeakData: string;
  /** Threads for onnxruntime (default 2). */
  threads?: number;
  /** Speaking rate (1: the voice's own). */
  speed?: number;
}

export class PiperTtsEngine implements TtsEngine, EngineLifecycle {
  readonly name = 'local/piper-joe';
  private tts: Promise<SherpaTts> | undefined;
  /** The synthesis in flight: the next one starts after it. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly settings: PiperTtsSettings) {}

  /** Whether the voice's files exist (otherwise the eSpeak NG fallback speaks). */
  static available(s: Partial<PiperTtsSettings>): s is PiperTtsSettings {
    return !!s.model && !!s.tokens && !!s.espeakData && existsSync(s.model) && existsSync(s.tokens) && existsSync(s.espeakData);
  }

  ready(): Promise<void> {
    this.tts ??= sherpa().OfflineTts.createAsync({
      model: {
        vits: { model: this.settings.model, tokens: this.settings.tokens, dataDir: this.settings.espeakData },
        numThreads: this.settings.threads ?? 2,
        provider: 'cpu',
        debug: false,
      },
      maxNumSentences: 1,
    });
    return this.tts.then(() => undefined);
  }

  async close(): Promise<void> {
    await this.tail.catch(() => undefined);
  }

  synthesize(text: string, options: TtsOptions): AsyncIterable<PcmChunk> {
    const { signal } = options;
    const queue = new ChunkQueue<PcmChunk>(signal);
    const run = async () => {
      if (signal.aborted || !text.trim()) return;
      await this.ready();
      const tts = await this.tts!;
      if (signal.aborted) return;
      await tts.generateAsync({
        text,
        sid: 0,
        speed: this.settings.speed ?? 1,
        enableExternalBuffer: false,
        onProgress: ({ samples }) => {
          if (signal.aborted) return 0;
          // A view of this realm on the samples' memory: element access on the addon's own array is slow where
          // the caller runs in another V8 context (a test runner's sandbox: 450 ms a sentence, measured).
          if (samples.length)
            queue.push({ pcm: fromFloat32(new Float32Array(samples.buffer, samples.byteOffset, samples.length)), sampleRate: tts.sampleRate });
          return 1;
        },
      });
    };
    const job = this.tail.then(run);
    this.tail = job.catch(() => undefined);
    job.then(
      () => queue.end(),
      (err: Error) => queue.end(err),
    );
    return queue;
  }
}
