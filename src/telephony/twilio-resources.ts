import { z } from 'zod';
import { ANSWERED_BY, CALL_STATUSES, type AnsweredBy, type ProviderCall } from './provider';

const sid = z.string().regex(/^CA[0-9a-fA-F]{32}$/);
const rfc2822 = z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'must be a date');
const knownAnswer = new Set<string>(ANSWERED_BY);

/** The fields of Twilio's Call resource (api.v2010.account.call) Switchboard reads. */
export const callResourceSchema = z.object({
  sid,
  parent_call_sid: sid.nullish(),
  status: z.enum(CALL_STATUSES),
  answered_by: z.string().nullish(),
  duration: z.string().regex(/^\d+$/).nullish(),
  from: z.string(),
  to: z.string(),
  date_created: rfc2822,
  end_time: rfc2822.nullish(),
});

/** A page of Twilio's call list (ListCallResponse). */
export const callListSchema = z.object({ calls: z.array(callResourceSchema) });

/** A Call resource as a ProviderCall. */
export function providerCallOf(r: z.infer<typeof callResourceSchema>): ProviderCall {
  const answered = r.answered_by ?? null;
  return {
    sid: r.sid,
    parentCallSid: r.parent_call_sid ?? null,
    status: r.status,
    // Twilio documents `human`/`machine` here but sends the detection's value; anything else is unknown.
    answeredBy: answered === null ? null : knownAnswer.has(answered) ? (answered as AnsweredBy) : 'unknown',
    durationSeconds: r.duration ? Number(r.duration) : null,
    from: r.from,
    to: r.to,
    createdAt: new Date(Date.parse(r.date_created)).toISOString(),
    endedAt: r.end_time ? new Date(Date.parse(r.end_time)).toISOString() : null,
  };
}
