/**
 * The fallback voice: eSpeak NG as a separate program (`espeak-ng --stdout`, GPL-3.0, Debian's package), used when
 * the Piper voice's files are missing. The text goes on stdin (never as an argument); the WAV on stdout is read as
 * it comes, header skipped, and yielded in chunks. Aborting kills the program and yields nothing more.
 */
import { spawn } from 'node:child_process';
import { ChunkQueue } from './chunk-queue';
import type { PcmChunk, TtsEngine, TtsOptions } from './types';

export interface EspeakTtsSettings {
  /** The espeak-ng program (default: espeak-ng on PATH). */
  program?: string;
  /** Default voice (eSpeak's name, default en-us). */
  voice?: string;
  /** Words per minute (default 165). */
  wordsPerMinute?: number;
}

/** Finds the WAV's data chunk: its sample rate and where the samples begin, once the header is complete. */
function parseWavHeader(buf: Buffer): { sampleRate: number; dataAt: number } | undefined {
  if (buf.length < 12) return undefined;
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error('espeak-ng did not write a WAV file');
  let sampleRate = 0;
  for (let at = 12; at + 8 <= buf.length;) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === 'data') return sampleRate ? { sampleRate, dataAt: at + 8 } : undefined;
    if (at + 8 + size > buf.length) return undefined;
    if (id === 'fmt ') sampleRate = buf.readUInt32LE(at + 12);
    at += 8 + size + (size & 1);
  }
  return undefined;
}

export class EspeakTtsEngine implements TtsEngine {
  readonly name = 'local/espeak-ng';

  constructor(private readonly settings: EspeakTtsSettings = {}) {}

  synthesize(text: string, options: TtsOptions): AsyncIterable<PcmChunk> {
    const { signal } = options;
    const queue = new ChunkQueue<PcmChunk>(signal);
    if (signal.aborted || !text.trim()) {
      queue.end();
      return queue;
    }
    const voice = options.voice ?? this.settings.voice ?? 'en-us';
    const child = spawn(this.settings.program ?? 'espeak-ng', ['--stdout', '-v', voice, '-s', String(this.settings.wordsPerMinute ?? 165)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const kill = () => child.kill('SIGKILL');
    signal.addEventListener('abort', kill, { once: true });
    let header: { sampleRate: number; dataAt: number } | undefined;
    let pending = Buffer.alloc(0);
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      if (!header) {
        try {
          header = parseWavHeader(pending);
        } catch (err) {
          kill();
          queue.end(err as Error);
          return;
        }
        if (!header) return;
        pending = pending.subarray(header.dataAt);
      }
      const whole = pending.length - (pending.length % 2);
      if (!whole) return;
      const pcm = new Int16Array(whole / 2);
      for (let i = 0; i < pcm.length; i++) pcm[i] = pending.readInt16LE(i * 2);
      pending = pending.subarray(whole);
      queue.push({ pcm, sampleRate: header.sampleRate });
    });
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('error', (err) => queue.end(new Error(`espeak-ng could not start: ${err.message} (install Debian's espeak-ng)`)));
    child.on('close', (code) => {
      signal.removeEventListener('abort', kill);
      if (signal.aborted || code === 0) queue.end();
      else queue.end(new Error(`espeak-ng exited with ${code}: ${stderr.trim()}`));
    });
    child.stdin.on('error', () => undefined); // the program may exit before reading it all (abort)
    child.stdin.end(text.replace(/\s+/g, ' '));
    return queue;
  }
}
