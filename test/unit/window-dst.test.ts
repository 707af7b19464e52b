import fc from 'fast-check';
import { WEEKDAYS } from '../../src/schedule/window-schema';
import { isWindowOpen, msUntilWindow } from '../../src/schedule/window';

const every = [...WEEKDAYS];
/** When the window opens, as an ISO instant, for a lead in tz at `now`. */
const opens = (now: string, w: { days: (typeof WEEKDAYS)[number][]; start: string; end: string }, tz: string) => {
  const at = Date.parse(now);
  return new Date(at + msUntilWindow(at, w, tz)).toISOString();
};

// 2024 changes. New York: Sun 10 Mar 02:00 EST → 03:00 EDT (07:00Z); Sun 3 Nov 02:00 EDT → 01:00 EST (06:00Z).
// Berlin: Sun 31 Mar 02:00 CET → 03:00 CEST (01:00Z); Sun 27 Oct 03:00 CEST → 02:00 CET (01:00Z).
describe('wait windows across DST changes', () => {
  it.each([
    // Spring forward: a start inside the skipped hour opens when the clock jumps past it, not an hour early or late.
    [
      'NY gap: 02:30–04:00 opens at the jump (03:00 EDT)',
      '2024-03-10T05:00:00Z',
      { days: every, start: '02:30', end: '04:00' },
      'America/New_York',
      '2024-03-10T07:00:00.000Z',
    ],
    [
      'Berlin gap: 02:15–05:00 opens at the jump (03:00 CEST)',
      '2024-03-31T00:00:00Z',
      { days: every, start: '02:15', end: '05:00' },
      'Europe/Berlin',
      '2024-03-31T01:00:00.000Z',
    ],
    // A window wholly inside the skipped hour does not happen that day: the next day's.
    [
      'NY gap: 02:00–02:45 is skipped that day',
      '2024-03-10T05:00:00Z',
      { days: every, start: '02:00', end: '02:45' },
      'America/New_York',
      '2024-03-11T06:00:00.000Z',
    ],
    // After the jump, the new offset counts: 09:00 EDT is 13:00Z.
    [
      'NY: 09:00 the day of the jump is 13:00Z',
      '2024-03-10T06:30:00Z',
      { days: ['sun'], start: '09:00', end: '17:00' },
      'America/New_York',
      '2024-03-10T13:00:00.000Z',
    ],
    [
      'Berlin: 09:00 the day of the jump is 07:00Z',
      '2024-03-30T23:30:00Z',
      { days: ['sun'], start: '09:00', end: '17:00' },
      'Europe/Berlin',
      '2024-03-31T07:00:00.000Z',
    ],
    // Fall back: the repeated hour opens the first time the clock reads the start.
    [
      'NY overlap: 01:30 opens the first time (EDT)',
      '2024-11-03T05:00:00Z',
      { days: every, start: '01:30', end: '01:45' },
      'America/New_York',
      '2024-11-03T05:30:00.000Z',
    ],
    [
      'Berlin overlap: 02:30 opens the first time (CEST)',
      '2024-10-27T00:00:00Z',
      { days: every, start: '02:30', end: '02:45' },
      'Europe/Berlin',
      '2024-10-27T00:30:00.000Z',
    ],
    // …and once more when the clock reads it again, an hour later.
    [
      'NY overlap: after the first pass, again in the repeat',
      '2024-11-03T05:50:00Z',
      { days: every, start: '01:30', end: '01:45' },
      'America/New_York',
      '2024-11-03T06:30:00.000Z',
    ],
    [
      'NY: 09:00 the day of the fall back is 14:00Z',
      '2024-11-03T04:00:00Z',
      { days: ['sun'], start: '09:00', end: '17:00' },
      'America/New_York',
      '2024-11-03T14:00:00.000Z',
    ],
    // Across midnight (local and UTC dates differ): the lead's own calendar decides the weekday.
    [
      'Berlin: Sat 23:30 local (22:30Z) → Mon 09:00',
      '2024-03-30T22:30:00Z',
      { days: ['mon'], start: '09:00', end: '17:00' },
      'Europe/Berlin',
      '2024-04-01T07:00:00.000Z',
    ],
    [
      'NY: Fri 23:00 local (Sat 04:00Z) → Sat 08:00 local',
      '2024-11-02T03:00:00Z',
      { days: ['sat'], start: '08:00', end: '10:00' },
      'America/New_York',
      '2024-11-02T12:00:00.000Z',
    ],
    [
      'NY: Sat 22:00 local across the fall back → Sun 06:00 EST',
      '2024-11-03T02:00:00Z',
      { days: ['sun'], start: '06:00', end: '07:00' },
      'America/New_York',
      '2024-11-03T11:00:00.000Z',
    ],
    [
      'Berlin: 23:59 Sat, a window opening at 00:00 Sun',
      '2024-10-26T21:59:00Z',
      { days: ['sun'], start: '00:00', end: '01:00' },
      'Europe/Berlin',
      '2024-10-26T22:00:00.000Z',
    ],
  ])('%s', (_name, now, w, tz, expected) => {
    expect(opens(now, w as { days: (typeof WEEKDAYS)[number][]; start: string; end: string }, tz)).toBe(expected);
  });

  it('is open (0 ms) in the repeated hour and right after the jump, and closed in between', () => {
    const w = { days: every, start: '01:00', end: '02:00' };
    expect(msUntilWindow(Date.parse('2024-11-03T05:15:00Z'), w, 'America/New_York')).toBe(0); // 01:15 EDT
    expect(msUntilWindow(Date.parse('2024-11-03T06:15:00Z'), w, 'America/New_York')).toBe(0); // 01:15 EST
    const late = { days: every, start: '03:00', end: '04:00' };
    expect(msUntilWindow(Date.parse('2024-03-10T07:00:00Z'), late, 'America/New_York')).toBe(0); // 03:00 EDT, just jumped
    expect(msUntilWindow(Date.parse('2024-03-10T06:59:00Z'), late, 'America/New_York')).toBe(60_000); // 01:59 EST
  });
});

/** An independent reading of the lead's wall clock (Intl, not luxon): weekday and minute of the day. */
function wall(instant: number, timeZone: string): { day: string; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { day: get('weekday').toLowerCase(), minute: Number(get('hour')) * 60 + Number(get('minute')) + Number(get('second')) / 60 };
}

describe('wait windows, as a property', () => {
  const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const window = fc
    .tuple(fc.subarray(every, { minLength: 1 }), fc.integer({ min: 0, max: 1438 }), fc.integer({ min: 1, max: 600 }))
    .map(([days, start, length]) => ({ days, start: hhmm(start), end: hhmm(Math.min(1439, start + length)) }));
  // Instants around the 2024 DST changes of these zones, and anywhere in the year.
  const changes = [
    '2024-03-10T07:00:00Z',
    '2024-11-03T06:00:00Z',
    '2024-03-31T01:00:00Z',
    '2024-10-27T01:00:00Z',
    '2024-04-06T15:00:00Z',
    '2024-10-05T15:30:00Z',
  ].map(Date.parse);
  const now = fc.oneof(
    fc.constantFrom(...changes).chain((c) => fc.integer({ min: c - 2 * 86_400_000, max: c + 86_400_000 })),
    fc.integer({ min: Date.parse('2024-01-01'), max: Date.parse('2024-12-31') }),
  );

  it('opens at a moment the wall clock is in the window, and not before (checked every 30 minutes and the second before)', () => {
    fc.assert(
      fc.property(now, window, fc.constantFrom(...zones), (t, w, tz) => {
        const inWindow = (at: number) => {
          const c = wall(at, tz);
          return (
            w.days.includes(c.day as (typeof every)[number]) &&
            c.minute >= Number(w.start.slice(0, 2)) * 60 + Number(w.start.slice(3)) &&
            c.minute < Number(w.end.slice(0, 2)) * 60 + Number(w.end.slice(3))
          );
        };
        const ms = msUntilWindow(t, w, tz);
        expect(inWindow(t + ms)).toBe(true);
        if (ms > 0) {
          expect(inWindow(t + ms - 1000)).toBe(false);
          for (let at = t; at < t + ms; at += 1_800_000) expect(inWindow(at)).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('isWindowOpen', () => {
  const zones = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'];
  const windows = [
    { days: every, start: '08:00', end: '21:00' },
    { days: ['sun' as const], start: '09:00', end: '17:00' },
    { days: ['sun' as const], start: '08:00', end: '21:00' },
    { days: every, start: '01:30', end: '02:30' },
    { days: ['mon' as const, 'sat' as const], start: '00:00', end: '23:59' },
  ];
  const start2024 = Date.parse('2024-01-01T00:00:00Z');
  const year = 366 * 24 * 3600_000;

  it('says what msUntilWindow says, asked again and again within a minute, across DST changes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: year }),
            fc.integer({ min: 0, max: windows.length - 1 }),
            fc.integer({ min: 0, max: zones.length - 1 }),
            fc.integer({ min: 0, max: 119_999 }),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        (asks) => {
          for (const [at, wi, zi, within] of asks) {
            // The same minute asked twice (a cached verdict), and the minute after.
            for (const now of [start2024 + at, start2024 + at - (at % 60_000) + within]) {
              expect(isWindowOpen(now, windows[wi]!, zones[zi]!)).toBe(msUntilWindow(now, windows[wi]!, zones[zi]!) === 0);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is right on both sides of a jump and of a window edge', () => {
    const w = { days: every, start: '01:30', end: '02:30' };
    // New York, spring forward 2024-03-10 07:00Z (02:00 EST → 03:00 EDT): 01:59:59 EST is open, 03:00 EDT is not.
    for (const iso of ['2024-03-10T06:59:59.999Z', '2024-03-10T07:00:00.000Z', '2024-03-10T06:29:59.999Z', '2024-03-10T06:30:00.000Z']) {
      const now = Date.parse(iso);
      expect([iso, isWindowOpen(now, w, 'America/New_York')]).toEqual([iso, msUntilWindow(now, w, 'America/New_York') === 0]);
    }
  });
});
