import { FramePacer, type PacedItem } from '../../src/voice/pacer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('outbound frame pacing', () => {
  it('sends 160-byte frames in real time, never a burst, marks in line', async () => {
    const sent: { at: number; item: PacedItem }[] = [];
    const t0 = performance.now();
    const pacer = new FramePacer((item) => sent.push({ at: performance.now() - t0, item }), { lead: 2 });
    pacer.push(Buffer.alloc(8000 + 80, 1)); // 1.01 s of audio: 50 frames and a half
    pacer.mark('t0:c0');
    pacer.push(Buffer.alloc(1600, 2)); // 10 frames more
    pacer.mark('t0:c1');
    await sleep(1400);
    const media = sent.filter((s) => s.item.kind === 'media');
    expect(media).toHaveLength(61);
    for (const s of media) expect((s.item as { mulaw: Buffer }).mulaw.length).toBe(160);
    // The half frame before the mark is padded with μ-law silence.
    expect([...(media[50]!.item as { mulaw: Buffer }).mulaw.subarray(78, 82)]).toEqual([1, 1, 0xff, 0xff]);
    expect(sent.map((s) => (s.item.kind === 'mark' ? s.item.name : '')).filter(Boolean)).toEqual(['t0:c0', 't0:c1']);
    expect(sent.findIndex((s) => s.item.kind === 'mark')).toBe(51);
    // Frame k goes out at (k - lead) × 20 ms: at most lead + 1 at once, and no drift over the second.
    expect(media.filter((s) => s.at < 5)).toHaveLength(3);
    const lateness = media.map((s, k) => s.at - Math.max(0, (k - 2) * 20));
    expect(Math.min(...lateness)).toBeGreaterThanOrEqual(-1);
    expect(lateness[60]!).toBeLessThan(30);
  });

  it('clear() drops what is queued and names the marks never sent', async () => {
    const sent: PacedItem[] = [];
    const pacer = new FramePacer((item) => sent.push(item), { lead: 0 });
    pacer.push(Buffer.alloc(1600));
    pacer.mark('a');
    pacer.push(Buffer.alloc(1600));
    pacer.mark('b');
    await sleep(70);
    const before = sent.length;
    expect(pacer.clear()).toEqual(['a', 'b']);
    await sleep(100);
    expect(sent.length).toBe(before);
    expect(pacer.queuedMs).toBe(0);
  });
});
