import fc from 'fast-check';
import { nextStartSlot, PACING_CATCH_UP_MS } from '../../src/campaigns/pacing';

// The campaign run's pacing, as its loop uses it: woken at some instant (a timer, possibly late), it starts every call
// whose slot has come, then sleeps until the next slot (and may wake later than that).

/** Start instants when the run wakes at each of `wakes` (ascending) with calls_per_minute giving `gapMs`. */
function starts(gapMs: number, wakes: number[], next = nextStartSlot): number[] {
  const out: number[] = [];
  let last = 0;
  for (const now of wakes) {
    for (let slot = next(last, gapMs, now); slot <= now; slot = next(last, gapMs, now)) {
      out.push(now);
      last = slot;
    }
  }
  return out;
}

/** Wake-ups from t0 on, each 1..maxLateMs after the previous: a timer that fires up to maxLateMs late. */
const wakeUps = (maxLateMs: number) =>
  fc.array(fc.integer({ min: 1, max: maxLateMs }), { minLength: 1, maxLength: 40 }).map((steps) => {
    let t = 1_000_000;
    return steps.map((d) => (t += d));
  });

const gaps = fc.integer({ min: 100, max: 60_000 }); // 600 down to 1 call per minute

describe('campaign pacing (calls_per_minute)', () => {
  it('never starts more than the rate allows, plus one catch-up burst, in any stretch of time', () => {
    fc.assert(
      fc.property(gaps, wakeUps(5_000), (gap, wakes) => {
        const at = starts(gap, wakes);
        let worst = 0; // the most starts in a stretch beyond what the rate and one burst allow
        for (let i = 0; i < at.length; i++)
          for (let j = i; j < at.length; j++) worst = Math.max(worst, j - i + 1 - (Math.floor((at[j]! - at[i]! + PACING_CATCH_UP_MS) / gap) + 1));
        expect(worst).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('keeps the rate asked for when timers fire late by up to the catch-up', () => {
    fc.assert(
      fc.property(gaps, wakeUps(PACING_CATCH_UP_MS), (gap, wakes) => {
        // The first call starts at the first wake-up, then one every gap: none is lost however late each wake-up is.
        const elapsed = wakes[wakes.length - 1]! - wakes[0]!;
        expect(starts(gap, wakes)).toHaveLength(Math.floor(elapsed / gap) + 1);
      }),
    );
  });

  it('is what the run needed: a gap after each actual start loses the calls a late timer delays', () => {
    // 600 calls a minute, woken once a second (its 100 ms timers firing late): 10 calls a second.
    const wakes = Array.from({ length: 60 }, (_, i) => 1_000_000 + 1_000 * i);
    expect(starts(100, wakes)).toHaveLength(591); // from the first wake-up on: 59 s of 10 a second, and the first
    // Before: the next call one gap after the last one's actual start, so one call per wake-up.
    let lastStart = -Infinity;
    const before = wakes.filter((now) => (lastStart + 100 <= now ? ((lastStart = now), true) : false));
    expect(before).toHaveLength(60);
  });
});
