/**
 * G.711 μ-law (the telephone line's 8-bit companding, what Twilio Media Streams carry), by table: 64 K entries to
 * encode every 16-bit sample, 256 to decode.
 */

const BIAS = 0x84;
const CLIP = 32635;

function encodeSample(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  const magnitude = Math.min(sign ? -sample : sample, CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; exponent > 0 && !(magnitude & mask); mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

function decodeByte(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

/** ENCODE[sample + 32768] is the μ-law byte of a 16-bit sample. */
const ENCODE = new Uint8Array(65536);
for (let s = -32768; s < 32768; s++) ENCODE[s + 32768] = encodeSample(s);
/** DECODE[byte] is the 16-bit sample a μ-law byte stands for. */
const DECODE = new Int16Array(256);
for (let b = 0; b < 256; b++) DECODE[b] = decodeByte(b);

/** μ-law bytes of 16-bit PCM samples. */
export function mulawEncode(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = ENCODE[pcm[i]! + 32768]!;
  return out;
}

/** 16-bit PCM samples of μ-law bytes. */
export function mulawDecode(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = DECODE[bytes[i]!]!;
  return out;
}

/** The μ-law byte of silence (a zero sample). */
export const MULAW_SILENCE = 0xff;
