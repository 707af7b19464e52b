import { InvalidCallbackError, parseStatusCallback } from '../../src/telephony/callback';
import { advances } from '../../src/telephony/ordering';

const SID = 'CA0123456789abcdef0123456789abcdef';
const PARENT = 'CAfedcba9876543210fedcba9876543210';
const base = {
  AccountSid: 'AC00000000000000000000000000000000',
  CallSid: SID,
  CallStatus: 'completed',
  SequenceNumber: '3',
  Timestamp: 'Tue, 31 Aug 2010 20:36:44 +0000',
  From: '+17145550100',
  To: '+17145550001',
  CallDuration: '12',
  SipResponseCode: '200',
};

describe('status callbacks into call events', () => {
  it('normalises a completed call with its answer, duration, transcript and recording', () => {
    const event = parseStatusCallback(
      new URLSearchParams({
        ...base,
        AnsweredBy: 'human',
        Transcript: 'agent: hi',
        RecordingUrl: 'https://api.twilio.com/2010-04-01/Accounts/AC00000000000000000000000000000000/Recordings/RE0123456789abcdef0123456789abcdef',
        Unknown: 'ignored',
      }),
    );
    expect(event).toEqual({
      callSid: SID,
      parentCallSid: null,
      status: 'completed',
      answeredBy: 'human',
      disposition: 'Completed',
      sequence: 3,
      timestamp: new Date('2010-08-31T20:36:44Z'),
      durationSeconds: 12,
      from: '+17145550100',
      to: '+17145550001',
      transcript: 'agent: hi',
      recordingUrl: 'https://api.twilio.com/2010-04-01/Accounts/AC00000000000000000000000000000000/Recordings/RE0123456789abcdef0123456789abcdef',
    });
  });

  it('reads a transfer leg (ParentCallSid) and a congested leg as disposition CONGESTION', () => {
    const event = parseStatusCallback({ ...base, ParentCallSid: PARENT, CallStatus: 'failed', SipResponseCode: '503', CallDuration: '0' });
    expect(event).toMatchObject({ parentCallSid: PARENT, status: 'failed', disposition: 'CONGESTION', answeredBy: null });
  });

  it.each([
    ['busy', undefined, 'BUSY'],
    ['no-answer', undefined, 'NOANSWER'],
    ['canceled', undefined, 'CANCEL'],
    ['failed', '404', 'CHANUNAVAIL'],
    ['ringing', undefined, null],
    ['in-progress', undefined, null],
    ['initiated', undefined, null],
  ])('status %s (SIP %s) has disposition %s', (status, sip, disposition) => {
    const { SipResponseCode: _, ...rest } = base;
    const event = parseStatusCallback({ ...rest, CallStatus: status, ...(sip ? { SipResponseCode: sip } : {}) });
    expect(event.disposition).toBe(disposition);
    if (status === 'initiated') expect(event.status).toBe('queued');
  });

  it.each([
    ['a missing CallSid', { CallSid: undefined }, 'CallSid'],
    ['a CallSid that is not a call sid', { CallSid: 'SM0123456789abcdef0123456789abcdef' }, 'CallSid'],
    ['an unknown status', { CallStatus: 'exploded' }, 'CallStatus'],
    ['a missing sequence number', { SequenceNumber: undefined }, 'SequenceNumber'],
    ['a negative sequence number', { SequenceNumber: '-1' }, 'SequenceNumber'],
    ['an unreadable timestamp', { Timestamp: 'yesterday-ish' }, 'Timestamp'],
    ['an unknown AnsweredBy', { AnsweredBy: 'robot' }, 'AnsweredBy'],
    ['a bad ParentCallSid', { ParentCallSid: 'CA123' }, 'ParentCallSid'],
    ['a javascript: RecordingUrl', { RecordingUrl: 'javascript:alert(document.cookie)' }, 'RecordingUrl'],
    ['a plain http RecordingUrl', { RecordingUrl: 'http://127.0.0.1:1/r.mp3' }, 'RecordingUrl'],
  ])('rejects %s, naming the field', (_name, change, field) => {
    const form = Object.fromEntries(Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    expect(() => parseStatusCallback(form)).toThrow(InvalidCallbackError);
    expect(() => parseStatusCallback(form)).toThrow(new RegExp(`^${field}: `));
  });

  it('lets a consumer drop duplicates and late arrivals by sequence, and never leave a terminal status', () => {
    const ringing = parseStatusCallback({ ...base, CallStatus: 'ringing', SequenceNumber: '1' });
    const answered = parseStatusCallback({ ...base, CallStatus: 'in-progress', SequenceNumber: '2' });
    const completed = parseStatusCallback(base);
    expect(advances(null, ringing)).toBe(true);
    expect(advances({ status: 'ringing', sequence: 1 }, ringing)).toBe(false); // the same callback again
    expect(advances({ status: 'ringing', sequence: 1 }, completed)).toBe(true); // 2 lost or late: 3 still applies
    expect(advances({ status: 'completed', sequence: 3 }, answered)).toBe(false); // late answered after the end
    expect(advances({ status: 'completed', sequence: 3 }, { status: 'ringing', sequence: 9 })).toBe(false);
    expect(advances({ status: 'in-progress', sequence: 2 }, ringing)).toBe(false);
  });
});
