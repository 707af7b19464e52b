// What the provider reports about a call when asked, turned into the events its callbacks would have carried.
import type { ProviderView } from '../../activities/calls/calls';
import { dispositionOf } from '../../src/telephony/disposition';
import type { CallLifecycleStatus, SignalledCallEvent } from './outbound-call-types';

/** What the workflow last applied for one call sid. */
export type Applied = Map<string, { status: CallLifecycleStatus; sequence: number }>;

/** How far along a status is; every end ranks last. */
const RANK: Record<string, number> = { queued: 0, ringing: 1, in_progress: 2 };
const rank = (status: string) => RANK[status.replace(/-/g, '_')] ?? 3;

/**
 * One event per call or transfer leg the provider reports further along than what was applied (none for one that
 * already ended): sequenced right after the last applied, so a late callback for an older state is dropped as usual.
 * A GET carries no transcript or recording; `at` stands in for a call that has not ended.
 */
export function eventsFromProvider(view: ProviderView, applied: Applied, at: string): SignalledCallEvent[] {
  return [view.call, ...view.legs].flatMap((c): SignalledCallEvent[] => {
    const prev = applied.get(c.sid);
    // The view may be older than a callback that arrived while it was read: it only ever moves a call forward.
    if (prev && rank(c.status) <= rank(prev.status)) return [];
    return [
      {
        callSid: c.sid,
        parentCallSid: c.parentCallSid,
        status: c.status,
        answeredBy: c.answeredBy,
        disposition: dispositionOf(c.status),
        sequence: (prev?.sequence ?? -1) + 1,
        timestamp: c.endedAt ?? at,
        durationSeconds: c.durationSeconds,
        to: c.to,
        transcript: null,
        recordingUrl: null,
      },
    ];
  });
}
