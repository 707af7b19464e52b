import { WEEKDAYS, type TimeWindow } from './schema';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** True when Intl knows the IANA time zone name. */
export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in a time zone at an instant, as if it were UTC (ms). */
function wallClock(instant: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The instant at which the wall clock in timeZone reads `wall` (a UTC-encoded wall time); DST gaps move forward. */
function instantOf(wall: number, timeZone: string): number {
  let guess = wall - (wallClock(wall, timeZone) - wall);
  guess = wall - (wallClock(guess, timeZone) - guess);
  // In a gap the guess lands on the clock before the jump (02:30 reads 01:30): move on by the gap, as clocks do.
  const short = wall - wallClock(guess, timeZone);
  return short > 0 ? guess + short : guess;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Milliseconds from `now` until the window is open in timeZone: 0 when it is open now. */
export function msUntilWindow(now: number, w: TimeWindow, timeZone: string): number {
  const wall = wallClock(now, timeZone);
  const day = new Date(wall);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const minuteOfDay = (wall - midnight) / 60_000;
  const [start, end] = [minutes(w.start), minutes(w.end)];
  const open = (dayStart: number) => w.days.includes(WEEKDAYS[(new Date(dayStart).getUTCDay() + 6) % 7]!);
  if (open(midnight) && minuteOfDay >= start && minuteOfDay < end) return 0;
  for (let k = 0; k <= 7; k++) {
    const dayStart = midnight + k * 86_400_000;
    if (!open(dayStart) || (k === 0 && minuteOfDay >= start)) continue;
    const at = instantOf(dayStart + start * 60_000, timeZone);
    if (at > now) return at - now;
  }
  throw new Error('a window with at least one weekday always opens within 8 days');
}
