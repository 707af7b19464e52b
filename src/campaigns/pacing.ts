// A campaign's calls_per_minute as start slots one gap apart. Pure: the campaign run uses it.

/**
 * How far behind now the next start slot may fall: a timer that wakes the run late (workflow timers fire up to about a
 * second after they are due on a busy server) is made up by starting the missed calls at once, at most this much of
 * them, so the rate over a minute is the one asked for; after an idle stretch (window closed, every place taken) no more
 * than this burst starts together.
 */
export const PACING_CATCH_UP_MS = 2_000;

/**
 * The instant the next call may start: one gap after the previous start's slot, never more than the catch-up behind
 * now; the first call (previousSlotMs 0: none started yet) starts now, not with a burst.
 */
export function nextStartSlot(previousSlotMs: number, gapMs: number, nowMs: number): number {
  if (previousSlotMs <= 0) return nowMs;
  return Math.max(previousSlotMs + gapMs, nowMs - PACING_CATCH_UP_MS);
}
