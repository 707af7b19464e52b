import { decodeMulaw, encodeMulaw } from '../../src/voice/audio/mulaw';

describe('G.711 μ-law codec', () => {
  it('encodes the reference points of G.711', () => {
    // Silence is 0xFF, the largest magnitudes 0x80 (positive) and 0x00 (negative).
    expect([...encodeMulaw(Int16Array.from([0, 32767, -32768, 1, -1]))]).toEqual([0xff, 0x80, 0x00, 0xff, 0x7f]);
    expect([...decodeMulaw(Buffer.from([0xff, 0x7f, 0x80, 0x00]))]).toEqual([0, 0, 32124, -32124]);
  });

  it('every code decodes and encodes back to itself (but 0x7F, negative zero, which encodes as 0xFF)', () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const again = encodeMulaw(decodeMulaw(all));
    expect([...again].map((b, i) => (i === 0x7f ? 0x7f : b))).toEqual([...all]);
  });

  it('keeps the error within the segment step (relative error under 4% above 500)', () => {
    const pcm = Int16Array.from({ length: 2000 }, (_, i) => Math.round(Math.sin(i / 7) * 30000));
    const back = decodeMulaw(encodeMulaw(pcm));
    for (let i = 0; i < pcm.length; i++) {
      if (Math.abs(pcm[i]!) > 500) expect(Math.abs(back[i]! - pcm[i]!) / Math.abs(pcm[i]!)).toBeLessThan(0.04);
      else expect(Math.abs(back[i]! - pcm[i]!)).toBeLessThanOrEqual(16);
    }
  });
});
