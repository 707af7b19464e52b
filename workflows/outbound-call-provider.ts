// What the provider reports about a call when asked, turned into the events its callbacks would have carried.
import type { ProviderView } from '../activities/calls';
import { dispositionOf } from '../src/telephony/disposition';
import type { CallLifecycleStatus, SignalledCallEvent } from './outbound-call-types';

/** What the workflow last applied for one call sid. */
export type Applied = Map<string, { status: CallLifecycleStatus; sequence: number }>;

const TERMINAL = new Set<string>(['completed', 'busy', 'no_answer', 'failed', 'canceled']);

/**
 * One event per call or transfer leg whose provider status differs from what was applied (none for one that already
 * ended): sequenced right after the last applied, so a late callback for an older state is dropped as usual. A GET
 * carries no transcript or recording; `at` stands in for a call that has not ended.
 */
export function eventsFromProvider(view: ProviderView, applied: Applied, at: string): SignalledCallEvent[] {
  return [view.call, ...view.legs].flatMap((c): SignalledCallEvent[] => {
    const prev = applied.get(c.sid);
    if (prev && (TERMINAL.has(prev.status) || prev.status === c.status.replace(/-/g, '_'))) return [];
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
