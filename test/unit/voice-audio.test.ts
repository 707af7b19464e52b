import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODEL_WHEELS, RUNTIME_WHEELS, SILERO_PACKAGE, verifyArtefact } from '../../src/devstack/voice-engines';
import { FRAME_BYTES, MulawFramer, mulawBase64FromPcm, pcmFromMulawBase64 } from '../../src/voice/audio/frames';
import { MULAW_SILENCE, mulawDecode, mulawEncode } from '../../src/voice/audio/mulaw';
import { Resampler, resample } from '../../src/voice/audio/resample';
import { piperTokens, withOnnxMetadata } from '../../src/voice/engines/piper-prepare';
import { wordErrorRate } from '../voice/wer';

const sine = (hz: number, rate: number, seconds: number, amplitude = 10_000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)));

/** Amplitude of the hz component of pcm (least squares on sin and cos), over the middle of the clip (filter edges cut). */
function amplitudeAt(pcm: Int16Array, rate: number, hz: number): number {
  const from = Math.floor(pcm.length * 0.2);
  const to = Math.floor(pcm.length * 0.8);
  let s = 0;
  let c = 0;
  for (let i = from; i < to; i++) {
    s += pcm[i]! * Math.sin((2 * Math.PI * hz * i) / rate);
    c += pcm[i]! * Math.cos((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(s, c)) / (to - from);
}

const rms = (pcm: Int16Array | number[]) => Math.sqrt(Array.from(pcm).reduce((a, x) => a + x * x, 0) / pcm.length);
const db = (ratio: number) => 20 * Math.log10(ratio);

describe('G.711 μ-law', () => {
  it('encodes and decodes the standard values', () => {
    expect(Array.from(mulawEncode(Int16Array.of(0, 32767, -32768, 1000, -1000, 8)))).toEqual([0xff, 0x80, 0x00, 0xce, 0x4e, 0xfe]);
    expect(Array.from(mulawDecode(Uint8Array.of(0xff, 0x7f, 0x80, 0x00, 0xce, 0x4e)))).toEqual([0, 0, 32124, -32124, 988, -988]);
    expect(mulawDecode(Uint8Array.of(MULAW_SILENCE))[0]).toBe(0);
  });

  it('round-trips every 16-bit sample within half a quantisation step (about 3 % of the magnitude)', () => {
    const all = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
    const back = mulawDecode(mulawEncode(all));
    let worst = 0;
    for (let i = 0; i < all.length; i++) {
      const s = all[i]!;
      if (Math.abs(s) > 32635) continue; // clipped by the codec
      worst = Math.max(worst, Math.abs(back[i]! - s) / ((Math.abs(s) + 132) / 32));
    }
    expect(worst).toBeLessThanOrEqual(1);
    // Every byte decodes to a value that encodes back to itself (except μ-law's two zeros).
    const bytes = Uint8Array.from({ length: 256 }, (_, b) => b).filter((b) => b !== 0x7f);
    expect(Array.from(mulawEncode(mulawDecode(bytes)))).toEqual(Array.from(bytes));
  });

  it('carries a sine with a signal-to-noise ratio above 35 dB', () => {
    const x = sine(440, 8000, 1);
    const y = mulawDecode(mulawEncode(x));
    const noise = Array.from(x, (v, i) => y[i]! - v);
    expect(db(rms(x) / rms(noise))).toBeGreaterThan(35);
  });
});

describe('resampling', () => {
  it.each([
    [8000, 16000, 1000],
    [16000, 8000, 1000],
    [16000, 8000, 3000],
    [22050, 8000, 1000],
    [22050, 8000, 3200],
    [22050, 16000, 5000],
  ])('%i Hz → %i Hz passes a %i Hz sine within 0.5 dB, with little distortion', (from, to, hz) => {
    const y = resample(sine(hz, from, 1), from, to);
    expect(y.length).toBe(Math.ceil((from * to) / from));
    const a = amplitudeAt(y, to, hz);
    expect(Math.abs(db(a / 10_000))).toBeLessThan(0.5);
    // What is left after removing the sine is noise: > 45 dB below it.
    const mid = y.subarray(Math.floor(y.length * 0.2), Math.floor(y.length * 0.8));
    const ref = sine(hz, to, 1).subarray(Math.floor(y.length * 0.2), Math.floor(y.length * 0.8));
    const phase = amplitudeAt(y, to, hz) / 10_000;
    const residual = Array.from(mid, (v, i) => v - phase * ref[i]!);
    expect(db(rms(mid) / rms(residual))).toBeGreaterThan(45);
  });

  it.each([
    [16000, 8000, 6000],
    [22050, 8000, 5000],
    [22050, 8000, 9000],
  ])('%i Hz → %i Hz suppresses a %i Hz sine (above the new Nyquist frequency) by more than 50 dB instead of aliasing it', (from, to, hz) => {
    const y = resample(sine(hz, from, 1), from, to);
    const mid = y.subarray(Math.floor(y.length * 0.2), Math.floor(y.length * 0.8));
    expect(db(rms(mid) / (10_000 / Math.SQRT2))).toBeLessThan(-50);
  });

  it.each([
    [8000, 16000],
    [22050, 8000],
  ])('%i Hz → %i Hz gives the same samples in any chunking as in one piece (no clicks at chunk boundaries)', (from, to) => {
    const x = sine(700, from, 0.5);
    const whole = resample(x, from, to);
    const r = new Resampler(from, to);
    const parts: number[] = [];
    let at = 0;
    for (const size of [1, 7, 160, 3, 441, 999, 20, 2]) {
      parts.push(...r.push(x.subarray(at, at + size)));
      at += size;
    }
    for (; at < x.length; at += 160) parts.push(...r.push(x.subarray(at, at + 160)));
    parts.push(...r.flush());
    expect(parts).toEqual(Array.from(whole));
  });

  it('refuses a rate that is not a positive integer', () => {
    expect(() => new Resampler(8000, 0)).toThrow(/positive integers/);
    expect(() => new Resampler(8000.5, 16000)).toThrow(/positive integers/);
  });
});

describe('Media Streams frames', () => {
  it('cuts any chunking into 160-byte μ-law frames and pads only the last one with silence', () => {
    const pcm = sine(300, 8000, 0.5); // 4000 samples: 25 frames
    const framer = new MulawFramer();
    const frames: string[] = [];
    for (let at = 0; at < 3990; at += 133) frames.push(...framer.push(pcm.subarray(at, Math.min(at + 133, 3990))));
    frames.push(...framer.flush());
    expect(frames).toHaveLength(25);
    const bytes = frames.map((f) => Buffer.from(f, 'base64'));
    expect(bytes.every((b) => b.length === FRAME_BYTES)).toBe(true);
    expect(Array.from(bytes[24]!.subarray(150))).toEqual(Array(10).fill(MULAW_SILENCE));
    expect(Buffer.concat(bytes).subarray(0, 3990)).toEqual(Buffer.from(mulawEncode(pcm.subarray(0, 3990))));
    expect(framer.flush()).toEqual([]);
  });

  it('decodes an inbound payload and encodes an outbound one', () => {
    const pcm = sine(300, 8000, 0.02);
    expect(pcmFromMulawBase64(mulawBase64FromPcm(pcm))).toEqual(mulawDecode(mulawEncode(pcm)));
  });
});

describe('Piper voice preparation', () => {
  it('appends metadata_props entries (ModelProto field 14) after the model, leaving its bytes as they were', () => {
    const model = Buffer.from([0x08, 0x07]); // ir_version = 7
    const out = withOnnxMetadata(model, { model_type: 'vits' });
    expect(out.subarray(0, 2)).toEqual(model);
    // field 14, wire type 2; entry { key = "model_type", value = "vits" }
    expect(Array.from(out.subarray(2))).toEqual([0x72, 18, 0x0a, 10, ...Buffer.from('model_type'), 0x12, 4, ...Buffer.from('vits')]);
  });

  it('writes tokens.txt as symbol and id per line, the space symbol included', () => {
    expect(piperTokens({ phoneme_id_map: { _: [0], ' ': [3], ə: [59] } })).toBe('_ 0\n  3\nə 59\n');
  });
});

describe('word error rate', () => {
  it('counts substitutions, insertions and deletions over the reference words, digits as spoken words', () => {
    expect(wordErrorRate('My account number is four five six seven.', 'my account number is 4567')).toBe(0);
    expect(wordErrorRate('Tuesday at three o’clock', "Tuesday at 3 o'clock.")).toBe(0);
    expect(wordErrorRate('Can you confirm that you are available', "Can you confirm that you're available?")).toBe(0);
    expect(wordErrorRate('a b c d', 'a x c')).toBe(0.5);
    expect(wordErrorRate('a b', 'a b c d')).toBe(1);
  });
});

describe('voice engines set-up', () => {
  it('refuses a downloaded artefact whose SHA-256 is not the recorded one, naming both', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-voice-'));
    const file = path.join(dir, 'x.tgz');
    writeFileSync(file, 'hello\n');
    const good = { spec: 'x@1.0.0', file: 'x.tgz', bytes: 6, sha256: '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03' };
    await expect(verifyArtefact(file, good)).resolves.toBeUndefined();
    await expect(verifyArtefact(file, { ...good, sha256: '0'.repeat(64) })).rejects.toThrow(
      `x@1.0.0: x.tgz has SHA-256 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03, expected ${'0'.repeat(64)}`,
    );
  });

  it('records every artefact with a SHA-256 and an exact version', () => {
    for (const a of [SILERO_PACKAGE, ...Object.values(MODEL_WHEELS), ...RUNTIME_WHEELS]) {
      expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(a.spec).toMatch(/(@|==)\d+\.\d+\.\d+$/);
    }
  });
});
