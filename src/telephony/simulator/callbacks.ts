import { twilioSignature } from '../signature';
import type { CallStatus, AnsweredBy } from '../provider';
import type { SimCall } from './ledger';

/** What one status callback says beyond the call itself. */
export interface CallbackExtras {
  answeredBy?: AnsweredBy;
  sipResponseCode?: number;
  durationSeconds?: number;
  transcript?: string;
  recordingUrl?: string;
}

/** RFC 2822 with a numeric zone, as Twilio writes its Timestamp. */
const rfc2822 = (at: Date) => at.toUTCString().replace('GMT', '+0000');

/** The form Twilio posts to StatusCallback for one event of a call or transfer leg. */
export function callbackForm(accountSid: string, call: SimCall, status: CallStatus, sequence: number, extras: CallbackExtras): URLSearchParams {
  const form = new URLSearchParams({
    AccountSid: accountSid,
    ApiVersion: '2010-04-01',
    CallbackSource: 'call-progress-events',
    CallSid: call.sid,
    CallStatus: status,
    Called: call.to,
    Caller: call.from,
    Direction: call.parentSid ? 'outbound-dial' : 'outbound-api',
    From: call.from,
    To: call.to,
    SequenceNumber: String(sequence),
    Timestamp: rfc2822(new Date()),
  });
  if (call.parentSid) form.set('ParentCallSid', call.parentSid);
  if (extras.answeredBy) form.set('AnsweredBy', extras.answeredBy);
  if (extras.sipResponseCode !== undefined) form.set('SipResponseCode', String(extras.sipResponseCode));
  if (extras.durationSeconds !== undefined) {
    form.set('CallDuration', String(extras.durationSeconds));
    form.set('Duration', String(Math.ceil(extras.durationSeconds / 60)));
  }
  if (extras.recordingUrl) form.set('RecordingUrl', extras.recordingUrl);
  if (extras.transcript) form.set('Transcript', extras.transcript);
  return form;
}

/** A POST signed as Twilio signs its requests to a customer's URLs (the form's parameters under X-Twilio-Signature). */
function signedPost(url: string, authToken: string, form: URLSearchParams): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(authToken, url, form),
      'user-agent': 'TwilioProxy/1.1 (switchboard carrier simulator)',
    },
    body: form.toString(),
    signal: AbortSignal.timeout(15_000),
  });
}

/** Posts a callback signed like Twilio; the receiver's status, or null when unreachable (Twilio does not retry). */
export async function postCallback(url: string, authToken: string, form: URLSearchParams): Promise<number | null> {
  try {
    const res = await signedPost(url, authToken, form);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

/** Asks a call's Url for its TwiML (a signed POST with the call's parameters, as Twilio does); null when unreachable or not 2xx. */
export async function fetchTwiml(url: string, authToken: string, form: URLSearchParams): Promise<string | null> {
  try {
    const res = await signedPost(url, authToken, form);
    const text = await res.text();
    return res.ok ? text : null;
  } catch {
    return null;
  }
}
