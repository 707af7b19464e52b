import { z } from 'zod';
import { dispositionOf } from './disposition';
import { ANSWERED_BY, type CallEvent, type CallStatus } from './provider';
import type { FormParams } from './signature';

const sid = z.string().regex(/^CA[0-9a-fA-F]{32}$/, 'must be a call sid (CA + 32 hex digits)');
const count = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a whole number')
  .transform(Number);

// Twilio reports the `initiated` event with CallStatus "initiated" on some accounts and "queued" on others.
const status = z
  .enum(['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'])
  .transform((s): CallStatus => (s === 'initiated' ? 'queued' : s));

/** The status-callback form fields Switchboard reads (Twilio's names); others are ignored. */
const statusCallbackSchema = z.object({
  CallSid: sid,
  ParentCallSid: sid.optional(),
  CallStatus: status,
  AnsweredBy: z.enum(ANSWERED_BY).optional(),
  SequenceNumber: count,
  Timestamp: z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'must be a date (RFC 2822)'),
  CallDuration: count.optional(),
  From: z.string().min(1),
  To: z.string().min(1),
  SipResponseCode: count.optional(),
  // Shown to users as a link: https only (Twilio's are), never javascript:, data: or plain http.
  RecordingUrl: z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional(),
  /** Simulator extension (Twilio delivers transcripts elsewhere). */
  Transcript: z.string().max(100_000).optional(),
});

/** A malformed status callback: the message names the fields. */
export class InvalidCallbackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCallbackError';
  }
}

/** Parses a (signature-verified) status-callback form body into a CallEvent; throws InvalidCallbackError. */
export function parseStatusCallback(params: FormParams): CallEvent {
  const flat = params instanceof URLSearchParams ? Object.fromEntries(params) : params;
  const parsed = statusCallbackSchema.safeParse(flat);
  if (!parsed.success) {
    throw new InvalidCallbackError(parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  }
  const f = parsed.data;
  return {
    callSid: f.CallSid,
    parentCallSid: f.ParentCallSid ?? null,
    status: f.CallStatus,
    answeredBy: f.AnsweredBy ?? null,
    disposition: dispositionOf(f.CallStatus, f.SipResponseCode),
    sequence: f.SequenceNumber,
    timestamp: new Date(Date.parse(f.Timestamp)),
    durationSeconds: f.CallDuration ?? null,
    from: f.From,
    to: f.To,
    transcript: f.Transcript ?? null,
    recordingUrl: f.RecordingUrl ?? null,
  };
}
