// Call admission's judgement (src/calls/admission.ts), the one place every caller's call is judged.
import { judgeCall, refusalError } from '../../src/calls/admission';
import type { AdmissionFacts } from '../../src/calls/db/admission';
import { DomainError } from '../../src/core/errors';

// Wednesday 2030-01-09 12:00 in New York (17:00 UTC).
const NOON_NY = Date.parse('2030-01-09T17:00:00Z');

const facts = (over: Partial<AdmissionFacts> = {}): AdmissionFacts => ({
  agentId: 'a',
  transferNumber: null,
  agentWindow: null,
  defaultRegion: 'US',
  workspaceTimezone: 'America/New_York',
  maxConcurrentCalls: 10,
  leadId: null,
  leadTimezone: null,
  doNotCall: false,
  givenFromIsOurs: false,
  groupNumbers: ['17145559001', '12125559002'],
  ...over,
});
const api = { waitForWindow: false };
const queued = { waitForWindow: true };

describe('judgeCall', () => {
  it('admits a call with the group number sharing the destination area code, else the least recently used', () => {
    expect(judgeCall(facts(), { to: '12125550001' }, NOON_NY, api)).toMatchObject({ ok: true, from: '12125559002', chosen: true, opensInMs: 0 });
    expect(judgeCall(facts(), { to: '13055550001' }, NOON_NY, api)).toMatchObject({ ok: true, from: '17145559001', chosen: true });
    expect(judgeCall(facts({ givenFromIsOurs: true }), { to: '12125550001', from: '17145559001' }, NOON_NY, api)).toMatchObject({
      ok: true,
      from: '17145559001',
      chosen: false,
    });
  });

  it('refuses in order: unknown agent, a caller id not ours, do-not-call, no caller id, window closed', () => {
    const to = '12125550001';
    expect(judgeCall(undefined, { to }, NOON_NY, api)).toEqual({ ok: false, code: 'invalid_agent' });
    expect(judgeCall(facts({ agentId: null, doNotCall: true }), { to }, NOON_NY, api)).toEqual({ ok: false, code: 'invalid_agent' });
    expect(judgeCall(facts({ doNotCall: true }), { to, from: '19995550000' }, NOON_NY, api)).toEqual({ ok: false, code: 'from_not_ours' });
    expect(judgeCall(facts({ doNotCall: true, groupNumbers: [] }), { to }, NOON_NY, queued)).toEqual({ ok: false, code: 'do_not_call' });
    expect(judgeCall(facts({ groupNumbers: [], agentWindow: { start: '01:00', end: '02:00' } }), { to }, NOON_NY, api)).toEqual({
      ok: false,
      code: 'no_caller_id',
    });
  });

  it('refuses a closed window to a caller that does not wait, and tells one that waits how long', () => {
    const closed = facts({ agentWindow: { start: '14:00', end: '18:00' } });
    const refused = judgeCall(closed, { to: '12125550001' }, NOON_NY, api);
    expect(refused).toMatchObject({ ok: false, code: 'outside_call_window', zone: 'America/New_York', opensAt: Date.parse('2030-01-09T19:00:00Z') });
    expect(judgeCall(closed, { to: '12125550001' }, NOON_NY, queued)).toMatchObject({ ok: true, opensInMs: 2 * 3600_000 });
    // The lead's zone first; a journey step's window before the agent's.
    expect(
      judgeCall(facts({ leadTimezone: 'America/Los_Angeles', agentWindow: { start: '08:00', end: '10:00' } }), { to: '12125550001' }, NOON_NY, api),
    ).toMatchObject({ ok: true, zone: 'America/Los_Angeles' });
    expect(judgeCall(closed, { to: '12125550001', window: { start: '11:00', end: '13:00' } }, NOON_NY, api)).toMatchObject({ ok: true });
    expect(judgeCall(facts({ agentWindow: { start: '08:00', end: '21:00', days: ['thu'] } }), { to: '12125550001' }, NOON_NY, api)).toMatchObject({
      ok: false,
      opensAt: Date.parse('2030-01-10T13:00:00Z'),
    });
  });

  it('words each refusal as a DomainError code, the cap with its retry-after seconds', () => {
    const window = { start: '14:00', end: '18:00', days: ['wed' as const] };
    const e = refusalError({ code: 'outside_call_window', window, zone: 'America/New_York', opensAt: Date.parse('2030-01-09T19:00:00Z') });
    expect(e).toBeInstanceOf(DomainError);
    expect([e.code, e.message]).toEqual([
      'outside_call_window',
      'Outside the call window (14:00–18:00 America/New_York): no call placed; it opens at 2030-01-09T14:00:00-05:00',
    ]);
    expect(refusalError({ code: 'concurrent_call_cap', cap: 1 })).toMatchObject({
      code: 'concurrent_call_cap',
      retryAfterSeconds: 30,
      message: expect.stringMatching(/may have 1 call in progress/),
    });
    expect(refusalError({ code: 'do_not_call' })).toMatchObject({ code: 'do_not_call', message: 'Phone number is on the do-not-call list: no call placed' });
    expect(refusalError({ code: 'invalid_agent' })).toMatchObject({ code: 'agent_not_found', message: 'Invalid agent' });
  });
});
