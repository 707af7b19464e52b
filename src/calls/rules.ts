import { WEEKDAYS, type TimeWindow } from '../schedule/window-schema';
import { isTimeZone } from '../schedule/window';
import type { CallWindow } from '../../workflows/calls/outbound-call-types';

/** Calls are placed 08:00–21:00 local, every day, unless the agent or the journey step says otherwise. */
const DEFAULT_CALL_WINDOW: TimeWindow = { start: '08:00', end: '21:00', days: [...WEEKDAYS] };

/** The window a call obeys: the journey step's, else the agent's, else the default. */
export function effectiveWindow(step: CallWindow | undefined, agent: CallWindow | null | undefined): TimeWindow {
  const w = step ?? agent ?? undefined;
  if (!w) return DEFAULT_CALL_WINDOW;
  const days = (w.days ?? WEEKDAYS).filter((d): d is TimeWindow['days'][number] => (WEEKDAYS as readonly string[]).includes(d));
  return { start: w.start, end: w.end, days: days.length ? days : [...WEEKDAYS] };
}

/** The zone the window is read in: the lead's, else the workspace's (an unknown zone name falls back too). */
export function callTimeZone(leadTimezone: string | null | undefined, workspaceTimezone: string): string {
  return leadTimezone && isTimeZone(leadTimezone) ? leadTimezone : isTimeZone(workspaceTimezone) ? workspaceTimezone : 'America/New_York';
}

/** The NANP area code of a digits phone (`17145550001` → `714`), else undefined. */
const areaCode = (phone: string): string | undefined => (/^1\d{10}$/.test(phone) ? phone.slice(1, 4) : undefined);

/**
 * The caller id for a destination from a phone group's numbers (least recently used first): one sharing the
 * destination's area code, else the least recently used.
 */
export function chooseFrom(numbers: string[], to: string): string | undefined {
  const area = areaCode(to);
  return (area && numbers.find((n) => areaCode(n) === area)) || numbers[0];
}
