/**
 * Speech-to-text by Whisper (tiny.en by default, a CTranslate2 conversion) in a Python worker process: one per
 * voice process, started by ready() (off the call path), fed JSON lines on stdin and answering on stdout
 * (whisper_worker.py). Requests wait in a queue here and go to the worker one at a time, finals before partials, so a
 * caller's final never waits behind another caller's partial; a partial overtaken by newer audio is dropped unsent.
 *
 * A stream buffers its utterance at 16 kHz (resampling what it is given) and, when partials are asked for, has it
 * re-decoded every partialIntervalMs of new audio (Whisper has no incremental decoding).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Resampler } from '../audio/resample';
import type { EngineLifecycle, PcmChunk, Recognition, SttEngine, SttOptions, SttStream } from './types';

const RATE = 16_000;

export interface WhisperSttSettings {
  /** The Python of the worker's virtual environment (ctranslate2, tokenizers, numpy). */
  python: string;
  /** The CTranslate2 model folder (model.bin, tokenizer.json…). */
  modelDir: string;
  /** CTranslate2's threads (default 2). */
  threads?: number;
  /** Re-decode for a partial after this much new audio (ms); 0: no partials. Default 400. */
  partialIntervalMs?: number;
  /** The worker's start-up (model load) timeout; default 30 s. */
  startTimeoutMs?: number;
}

interface Job {
  pcm: Int16Array;
  final: boolean;
  resolve: (text: string) => void;
  reject: (err: Error) => void;
  /** A partial no longer wanted (newer audio came, or the stream ended) is dropped before it is sent. */
  stale?: () => boolean;
}

/** The worker script: beside this module (src), or in the source tree when running from dist. */
function workerScript(): string {
  const here = path.join(__dirname, 'whisper_worker.py');
  if (existsSync(here)) return here;
  return path.resolve(__dirname, '..', '..', '..', '..', 'src', 'voice', 'engines', 'whisper_worker.py');
}

export class WhisperSttEngine implements SttEngine, EngineLifecycle {
  readonly name = 'local/whisper-tiny.en';
  readonly caps: { partials: boolean };
  private worker: ChildProcessWithoutNullStreams | undefined;
  private starting: Promise<void> | undefined;
  private queue: Job[] = [];
  private inFlight: { id: number; job: Job } | undefined;
  private nextId = 1;
  private closed = false;
  private stderr = '';
  /** Decode times the worker reported (ms), newest last; for the figures. */
  readonly decodeMs: number[] = [];

  constructor(private readonly settings: WhisperSttSettings) {
    this.caps = { partials: (settings.partialIntervalMs ?? 400) > 0 };
  }

  ready(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  private start(): Promise<void> {
    if (!existsSync(this.settings.python))
      return Promise.reject(new Error(`the speech worker's Python ${this.settings.python} does not exist (run the voice engines' set-up)`));
    if (!existsSync(path.join(this.settings.modelDir, 'model.bin')))
      return Promise.reject(new Error(`no Whisper model in ${this.settings.modelDir} (run the voice engines' set-up)`));
    const worker = spawn(this.settings.python, [workerScript()], {
      env: { ...process.env, WHISPER_MODEL_DIR: this.settings.modelDir, WHISPER_THREADS: String(this.settings.threads ?? 2), PYTHONUNBUFFERED: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.worker = worker;
    worker.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the speech worker did not load its model in time')), this.settings.startTimeoutMs ?? 30_000);
      const lines = createInterface({ input: worker.stdout });
      lines.on('line', (line) => {
        let msg: { ready?: boolean; id?: number; text?: string; error?: string; decode_ms?: number };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          return; // not ours (a library printing to stdout)
        }
        if (msg.ready) {
          clearTimeout(timer);
          resolve();
          this.pump();
          return;
        }
        const current = this.inFlight;
        if (!current || msg.id !== current.id) return;
        this.inFlight = undefined;
        if (msg.error !== undefined) current.job.reject(new Error(`speech worker: ${msg.error}`));
        else {
          if (msg.decode_ms !== undefined) this.decodeMs.push(msg.decode_ms);
          current.job.resolve(msg.text ?? '');
        }
        this.pump();
      });
      worker.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      worker.on('exit', (code, sig) => {
        clearTimeout(timer);
        const err = new Error(`the speech worker exited (${sig ?? code})${this.stderr ? `: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
        reject(err);
        this.worker = undefined;
        this.inFlight?.job.reject(err);
        this.inFlight = undefined;
        for (const job of this.queue.splice(0)) job.reject(err);
        // A crash (not close()) restarts the worker for the next request.
        if (!this.closed) this.starting = undefined;
      });
    });
  }

  /** Decodes 16 kHz PCM16: the worker's text. */
  private decode(pcm: Int16Array, final: boolean, stale?: () => boolean): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the speech-to-text engine is closed'));
    return new Promise<string>((resolve, reject) => {
      const job: Job = { pcm, final, resolve, reject, stale };
      // Finals go before every waiting partial.
      const at = final ? this.queue.findIndex((j) => !j.final) : -1;
      if (at < 0) this.queue.push(job);
      else this.queue.splice(at, 0, job);
      this.ready().then(
        () => this.pump(),
        (err: Error) => {
          this.queue = this.queue.filter((j) => j !== job);
          reject(err);
        },
      );
    });
  }

  private pump(): void {
    const worker = this.worker;
    if (this.inFlight || !worker) return;
    let job = this.queue.shift();
    while (job && !job.final && job.stale?.()) {
      job.resolve('');
      job = this.queue.shift();
    }
    if (!job) return;
    const id = this.nextId++;
    this.inFlight = { id, job };
    const pcm = Buffer.from(job.pcm.buffer, job.pcm.byteOffset, job.pcm.byteLength);
    worker.stdin.write(`${JSON.stringify({ id, pcm: pcm.toString('base64') })}\n`);
  }

  open(options: SttOptions): SttStream {
    if (!/^en\b/i.test(options.language)) throw new Error(`${this.name} recognises English only (asked for ${options.language})`);
    return new WhisperStream(this, options, this.caps.partials ? (this.settings.partialIntervalMs ?? 400) : 0);
  }

  /** For streams: the engine's decode. */
  run(pcm: Int16Array, final: boolean, stale?: () => boolean): Promise<string> {
    return this.decode(pcm, final, stale);
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.stdin.end();
      setTimeout(() => worker.kill('SIGKILL'), 2000).unref();
    });
  }
}

class WhisperStream implements SttStream {
  private resampler: Resampler | undefined;
  private parts: Int16Array[] = [];
  private samples = 0;
  private partialAt = 0;
  private partialBusy = false;
  private ended = false;

  constructor(
    private readonly engine: WhisperSttEngine,
    private readonly options: SttOptions,
    private readonly partialEveryMs: number,
  ) {}

  write(chunk: PcmChunk): void {
    if (this.ended) return;
    if (!this.resampler || this.resampler.fromRate !== chunk.sampleRate) this.resampler = new Resampler(chunk.sampleRate, RATE);
    this.add(this.resampler.push(chunk.pcm));
    if (this.partialEveryMs && this.options.onPartial && !this.partialBusy && this.samples - this.partialAt >= (this.partialEveryMs * RATE) / 1000)
      this.partial();
  }

  private add(pcm: Int16Array) {
    if (!pcm.length) return;
    this.parts.push(pcm);
    this.samples += pcm.length;
  }

  private audio(): Int16Array {
    const all = new Int16Array(this.samples);
    let at = 0;
    for (const p of this.parts) {
      all.set(p, at);
      at += p.length;
    }
    this.parts = [all];
    return all;
  }

  private partial() {
    this.partialBusy = true;
    this.partialAt = this.samples;
    const upTo = this.samples;
    this.engine
      .run(this.audio(), false, () => this.ended)
      .then(
        (text) => {
          if (!this.ended && text) this.options.onPartial?.({ text, final: false });
        },
        () => undefined, // a partial that failed is only a partial
      )
      .finally(() => {
        this.partialBusy = false;
        // Audio came while decoding: the next partial may be due already.
        if (!this.ended && this.options.onPartial && this.samples - upTo >= (this.partialEveryMs * RATE) / 1000) this.partial();
      });
  }

  async finish(signal?: AbortSignal): Promise<Recognition> {
    if (this.ended) throw new Error('the utterance is already finished or closed');
    this.ended = true;
    if (this.resampler) this.add(this.resampler.flush());
    signal?.throwIfAborted();
    if (!this.samples) return { text: '', final: true };
    const decoded = this.engine.run(this.audio(), true);
    if (!signal) return { text: await decoded, final: true };
    return new Promise<Recognition>((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      decoded.then(
        (text) => {
          signal.removeEventListener('abort', onAbort);
          resolve({ text, final: true });
        },
        (err: Error) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }

  close(): void {
    this.ended = true;
    this.parts = [];
    this.samples = 0;
  }
}
