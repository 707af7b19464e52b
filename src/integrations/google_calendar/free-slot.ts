/** A busy interval as freeBusy reports it. */
export interface Busy {
  start: string;
  end: string;
}

/**
 * The first start at or after `from` (stepping by `stepMs`) where `durationMs` fits before `until` without touching a
 * busy interval; undefined when none does.
 */
export function firstFreeSlot(from: number, until: number, durationMs: number, stepMs: number, busy: Busy[]): number | undefined {
  const intervals = busy.map((b) => [Date.parse(b.start), Date.parse(b.end)] as const).filter(([s, e]) => !Number.isNaN(s) && !Number.isNaN(e));
  for (let t = from; t + durationMs <= until; t += stepMs) {
    if (!intervals.some(([s, e]) => t < e && s < t + durationMs)) return t;
  }
  return undefined;
}
