/**
 * Media Streams frames: base64 μ-law 8 kHz payloads (no header) ↔ PCM16. Outbound audio goes in 160-byte frames
 * (20 ms); a framer keeps the remainder of a chunk for the next one, so chunk sizes never leave a short frame mid-stream.
 */
import { mulawDecode, mulawEncode, MULAW_SILENCE } from './mulaw';

/** Bytes of one 20 ms μ-law frame at 8 kHz. */
export const FRAME_BYTES = 160;

/** The PCM16 of one inbound `media` payload (base64 μ-law). */
export function pcmFromMulawBase64(payload: string): Int16Array {
  return mulawDecode(Buffer.from(payload, 'base64'));
}

/** One outbound `media` payload (base64 μ-law) of PCM16 at 8 kHz. */
export function mulawBase64FromPcm(pcm8k: Int16Array): string {
  return Buffer.from(mulawEncode(pcm8k)).toString('base64');
}

/** Cuts a stream of 8 kHz PCM16 into base64 μ-law payloads of exactly frameBytes each. */
export class MulawFramer {
  private pending = new Uint8Array(0);

  constructor(readonly frameBytes = FRAME_BYTES) {
    if (!Number.isInteger(frameBytes) || frameBytes <= 0) throw new RangeError(`frame size must be a positive integer (got ${frameBytes})`);
  }

  /** Full frames of what has come so far; the remainder waits for the next push or flush. */
  push(pcm8k: Int16Array): string[] {
    const bytes = new Uint8Array(this.pending.length + pcm8k.length);
    bytes.set(this.pending);
    bytes.set(mulawEncode(pcm8k), this.pending.length);
    const frames: string[] = [];
    let at = 0;
    for (; at + this.frameBytes <= bytes.length; at += this.frameBytes) frames.push(Buffer.from(bytes.subarray(at, at + this.frameBytes)).toString('base64'));
    this.pending = bytes.slice(at);
    return frames;
  }

  /** The last, short frame padded with silence (none when nothing is pending). */
  flush(): string[] {
    if (!this.pending.length) return [];
    const frame = new Uint8Array(this.frameBytes).fill(MULAW_SILENCE);
    frame.set(this.pending);
    this.pending = new Uint8Array(0);
    return [Buffer.from(frame).toString('base64')];
  }

  /** Drops what is pending (barge-in: the rest of the utterance is not sent). */
  reset(): void {
    this.pending = new Uint8Array(0);
  }
}
