import { LRUCache } from 'lru-cache';
import { DateTime, IANAZone } from 'luxon';
import { WEEKDAYS, type TimeWindow } from './window-schema';

// Luxon checks a name by building an Intl.DateTimeFormat each time (a fair share of a placed call's CPU); the answer
// never changes within a process, and few names are in use. Bounded: cleared when it grows past what real use needs.
const knownZones = new Map<string, boolean>();

/** True when the IANA time zone name is known. */
export function isTimeZone(tz: string): boolean {
  let valid = knownZones.get(tz);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(tz);
    if (knownZones.size >= 1000) knownZones.clear();
    knownZones.set(tz, valid);
  }
  return valid;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const minuteOfDay = (t: DateTime) => t.hour * 60 + t.minute + t.second / 60 + t.millisecond / 60_000;
const openDay = (w: TimeWindow, t: DateTime) => w.days.includes(WEEKDAYS[t.weekday - 1]!);
const isOpen = (w: TimeWindow, t: DateTime) => openDay(w, t) && minuteOfDay(t) >= minutes(w.start) && minuteOfDay(t) < minutes(w.end);

// Whether a window is open changes only when the local minute, the weekday or the zone's offset does. Today every
// zone's offset is a whole number of minutes and changes on a whole minute, so all of these happen on whole UTC minutes:
// a verdict holds for the rest of its UTC minute. Placed calls ask it for the same few windows and zones over and over.
const verdicts = new LRUCache<string, { minute: number; open: boolean }>({ max: 1000 });

/** Whether the window is open at `now` in timeZone (as msUntilWindow(now, w, timeZone) === 0), remembered per UTC minute. */
export function isWindowOpen(now: number, w: TimeWindow, timeZone: string): boolean {
  const minute = Math.floor(now / 60_000);
  const key = `${timeZone} ${w.start} ${w.end} ${w.days.join(',')}`;
  const known = verdicts.get(key);
  if (known?.minute === minute) return known.open;
  const open = isOpen(w, DateTime.fromMillis(now, { zone: timeZone }));
  verdicts.set(key, { minute, open });
  return open;
}

/** The instant the zone's offset changes on t's day, if it does (a DST change), to the second. */
function offsetChange(t: DateTime): number | undefined {
  const dayStart = t.startOf('day');
  let [lo, hi] = [dayStart.toMillis(), dayStart.plus({ days: 1 }).toMillis()];
  const before = dayStart.offset;
  if (DateTime.fromMillis(hi, { zone: t.zone }).offset === before) return undefined;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (DateTime.fromMillis(mid, { zone: t.zone }).offset === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Milliseconds from `now` until the window is open in timeZone: 0 when it is open now. It opens the first time the
 * lead's wall clock reads a time in it on one of its days: when the clock reaches start (in a repeated hour, the
 * first time it does; and again the second), or when a DST change jumps the clock into the window.
 */
export function msUntilWindow(now: number, w: TimeWindow, timeZone: string): number {
  const here = DateTime.fromMillis(now, { zone: timeZone });
  if (isOpen(w, here)) return 0;
  const start = minutes(w.start);
  for (let k = 0; k <= 7; k++) {
    const day = here.plus({ days: k });
    if (!openDay(w, day)) continue;
    const atStart = day.set({ hour: Math.floor(start / 60), minute: start % 60, second: 0, millisecond: 0 });
    const candidates = atStart.getPossibleOffsets().map((t) => t.toMillis());
    const change = offsetChange(day);
    if (change !== undefined) candidates.push(change);
    const opening = candidates.sort((a, b) => a - b).find((at) => at > now && isOpen(w, DateTime.fromMillis(at, { zone: timeZone })));
    if (opening !== undefined) return opening - now;
  }
  throw new Error('a window with at least one weekday always opens within 8 days');
}
