import type { ProviderView } from '../../activities/calls/calls';
import type { ProviderCall } from '../../src/telephony/provider';
import { eventsFromProvider, type Applied } from '../../workflows/calls/outbound-call-provider';

const SID = 'CA0123456789abcdef0123456789abcdef';
const LEG = 'CAfedcba9876543210fedcba9876543210';
const call = (sid: string, status: ProviderCall['status'], extra: Partial<ProviderCall> = {}): ProviderCall => ({
  sid,
  parentCallSid: null,
  status,
  answeredBy: null,
  durationSeconds: null,
  from: '+12125559002',
  to: '+12125550005',
  createdAt: '2030-01-07T13:00:00.000Z',
  endedAt: null,
  ...extra,
});
const AT = '2030-01-07T13:01:00.000Z';

describe("the provider's view of a call, as events", () => {
  it('moves the call and its legs forward, sequenced after what was applied, ended ones at their end', () => {
    const view: ProviderView = {
      call: call(SID, 'completed', { answeredBy: 'human', durationSeconds: 7, endedAt: '2030-01-07T13:00:09.000Z' }),
      legs: [call(LEG, 'failed', { parentCallSid: SID, to: '+18005550100', endedAt: '2030-01-07T13:00:05.000Z' })],
    };
    const applied: Applied = new Map([[SID, { status: 'ringing', sequence: 1 }]]);
    expect(eventsFromProvider(view, applied, AT)).toEqual([
      expect.objectContaining({
        callSid: SID,
        parentCallSid: null,
        status: 'completed',
        answeredBy: 'human',
        disposition: 'Completed',
        sequence: 2,
        durationSeconds: 7,
        timestamp: '2030-01-07T13:00:09.000Z',
      }),
      expect.objectContaining({ callSid: LEG, parentCallSid: SID, status: 'failed', disposition: 'CHANUNAVAIL', sequence: 0, to: '+18005550100' }),
    ]);
  });

  it('never moves a call back: a view older than a callback that arrived meanwhile, or an ended call, adds nothing', () => {
    const view: ProviderView = { call: call(SID, 'ringing'), legs: [call(LEG, 'in-progress', { parentCallSid: SID })] };
    const applied: Applied = new Map([
      [SID, { status: 'in_progress', sequence: 2 }],
      [LEG, { status: 'completed', sequence: 3 }],
    ]);
    expect(eventsFromProvider(view, applied, AT)).toEqual([]);
    expect(eventsFromProvider({ call: call(SID, 'in-progress'), legs: [] }, new Map([[SID, { status: 'in_progress', sequence: 2 }]]), AT)).toEqual([]);
    expect(eventsFromProvider({ call: call(SID, 'in-progress'), legs: [] }, new Map(), AT)).toEqual([
      expect.objectContaining({ status: 'in-progress', sequence: 0, timestamp: AT }),
    ]);
  });
});
