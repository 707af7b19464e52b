/**
 * G.711 μ-law (ITU-T G.711, the telephone line's 8-bit companding): Twilio Media Streams carry audio/x-mulaw at
 * 8 kHz mono. Encoding by the standard segment search with the 0x84 bias and 14-bit clip; decoding by a 256-entry table.
 */
const BIAS = 0x84;
const CLIP = 32635;

function encodeSample(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

const DECODE = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  DECODE[i] = u & 0x80 ? -magnitude : magnitude;
}

/** 16-bit PCM → μ-law bytes, one byte per sample. */
export function encodeMulaw(pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = encodeSample(pcm[i]!);
  return out;
}

/** μ-law bytes → 16-bit PCM. */
export function decodeMulaw(buf: Buffer): Int16Array {
  const out = new Int16Array(buf.length);
  for (let i = 0; i < buf.length; i++) out[i] = DECODE[buf[i]!]!;
  return out;
}
