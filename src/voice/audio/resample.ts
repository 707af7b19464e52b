/**
 * Streaming PCM16 resampling by a rational factor (polyphase windowed sinc, Blackman window): 8 kHz ↔ 16 kHz for the
 * line and Silero/Whisper, 22.05 kHz → 8 kHz for the Piper voice. The low-pass cuts at 90 % of the lower Nyquist
 * frequency, so downsampling does not alias. A stream keeps the filter's history across chunks: feeding audio in any
 * chunking yields the same samples as feeding it whole (no click at chunk boundaries); flush() emits the tail.
 */

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * A float rounded (half away from zero) and clamped to 16 bits, without Math calls: the hot loops run per sample,
 * and Math's functions are slow inside a test runner's V8 context (200–450 ms per 68 k samples under jest).
 */
const to16 = (v: number): number => (v >= 32767 ? 32767 : v <= -32768 ? -32768 : v >= 0 ? (v + 0.5) | 0 : (v - 0.5) | 0);

/** Zero crossings of the sinc on each side: the filter's length (and latency) in units of the cutoff period. */
const ZERO_CROSSINGS = 16;
const ROLLOFF = 0.9;

interface Filter {
  up: number;
  down: number;
  /** Taps on each side of the output instant, in input samples. */
  half: number;
  /** taps[phase * 2 * half + j]: weight of input sample floor(t) - half + 1 + j for the output instant t. */
  taps: Float32Array;
}

const filters = new Map<string, Filter>();

function filterFor(from: number, to: number): Filter {
  const key = `${from}:${to}`;
  const cached = filters.get(key);
  if (cached) return cached;
  const g = gcd(from, to);
  const up = to / g;
  const down = from / g;
  // Cutoff relative to the input's Nyquist frequency (1 = input Nyquist).
  const fc = Math.min(1, up / down) * ROLLOFF;
  const half = Math.ceil(ZERO_CROSSINGS / fc);
  const width = 2 * half;
  const taps = new Float32Array(up * width);
  for (let phase = 0; phase < up; phase++) {
    // The output instant lies phase/up of an input sample past floor(t).
    const frac = phase / up;
    let sum = 0;
    for (let j = 0; j < width; j++) {
      const x = j - half + 1 - frac; // input sample position minus output instant
      const arg = fc * x;
      const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
      const w = x / half; // in [-1, 1]
      const blackman = Math.abs(w) >= 1 ? 0 : 0.42 + 0.5 * Math.cos(Math.PI * w) + 0.08 * Math.cos(2 * Math.PI * w);
      const v = fc * sinc * blackman;
      taps[phase * width + j] = v;
      sum += v;
    }
    for (let j = 0; j < width; j++) taps[phase * width + j]! /= sum; // unit gain at DC in every phase
  }
  const filter = { up, down, half, taps };
  filters.set(key, filter);
  return filter;
}

export class Resampler {
  private readonly f: Filter | undefined;
  /** Input samples still needed (as floats), and the absolute index of history[0]. */
  private history = new Float32Array(0);
  private historyStart = 0;
  /** Input samples received so far. */
  private received = 0;
  /** The next output sample's index. */
  private produced = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0)
      throw new RangeError(`sample rates must be positive integers (got ${fromRate} → ${toRate})`);
    this.f = fromRate === toRate ? undefined : filterFor(fromRate, toRate);
  }

  /** Resamples the next chunk of the stream. */
  push(pcm: Int16Array): Int16Array {
    if (!this.f) return pcm.slice();
    const joined = new Float32Array(this.history.length + pcm.length);
    joined.set(this.history);
    joined.set(pcm, this.history.length);
    this.history = joined;
    this.received += pcm.length;
    return this.drain(this.received);
  }

  /** The stream ended: the samples held back for the filter's look-ahead (the input is taken as silent beyond its end). */
  flush(): Int16Array {
    if (!this.f) return new Int16Array(0);
    const total = Math.ceil((this.received * this.f.up) / this.f.down);
    return this.drain(this.received + this.f.half, total);
  }

  /** Output samples whose taps lie before `available` input samples (those past `received` read as zero). */
  private drain(available: number, limit = Infinity): Int16Array {
    const { up, down, half, taps } = this.f!;
    const width = 2 * half;
    const out: number[] = [];
    for (;;) {
      const n = this.produced;
      if (n >= limit) break;
      const base = ((n * down - ((n * down) % up)) / up) | 0;
      if (base + half >= available) break;
      const phase = (n * down) % up;
      const first = base - half + 1;
      let acc = 0;
      for (let j = 0; j < width; j++) {
        const k = first + j - this.historyStart;
        if (k < 0 || first + j >= this.received) continue; // before the stream's start, or past its end
        acc += taps[phase * width + j]! * this.history[k]!;
      }
      out.push(acc);
      this.produced++;
    }
    // Keep only the history the next output still reads.
    const keepFrom = Math.max(0, Math.floor((this.produced * down) / up) - half + 1);
    if (keepFrom > this.historyStart) {
      this.history = this.history.slice(Math.min(keepFrom - this.historyStart, this.history.length));
      this.historyStart = keepFrom;
    }
    const pcm = new Int16Array(out.length);
    for (let i = 0; i < out.length; i++) pcm[i] = to16(out[i]!);
    return pcm;
  }
}

/** Resamples a whole clip. */
export function resample(pcm: Int16Array, fromRate: number, toRate: number): Int16Array {
  const r = new Resampler(fromRate, toRate);
  const head = r.push(pcm);
  const tail = r.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** 16-bit samples as floats in [-1, 1) (what the ONNX engines take). */
export function toFloat32(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i]! / 32768;
  return out;
}

/** Floats in [-1, 1] as 16-bit samples (clamped). */
export function fromFloat32(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = to16(samples[i]! * 32767);
  return out;
}
