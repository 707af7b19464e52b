import { z } from 'zod';
import type { CallRowJson } from './db/calls';

/** Timestamps in the wire form (UTC ISO-8601 with Z), from a JSON row's timestamptz text. */
const iso = (v: unknown): string | null => (typeof v === 'string' || v instanceof Date ? new Date(v).toISOString() : null);
/** A column missing from an older row shows as null. */
const opt = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** A call's lifecycle statuses (the `status` field), as GET /v1/calls filters on them. */
export const CALL_STATUSES = ['queued', 'ringing', 'in_progress', 'completed', 'busy', 'no_answer', 'failed', 'canceled'] as const;

/** A call or transfer leg as GET /v1/call and GET /v1/calls present it (presentCallRecord). */
export const CallRecord = z.object({
  call_id: z.string().describe('Call UUID; a transfer leg has `:1`, `:2` … appended'),
  phone_to: z.string(),
  phone_from: z.string(),
  call_start: z.iso.datetime().nullable(),
  call_end: z.iso.datetime().nullable(),
  disposition: z.string().nullable(),
  answered_by: z.string().nullable().optional().describe('Not on legs'),
  agent: z.string().nullable().describe('Agent UUID'),
  direction: z.string().describe('"out" for outbound'),
  transfer: z.literal(true).optional().describe('On a transferred call'),
  is_transfer: z.literal(true).optional().describe('On a transfer leg'),
  status: z.string().describe(`Lifecycle: ${CALL_STATUSES.join(', ')}`),
  ended_reason: z.string().nullable(),
  duration: z.number().nullable().describe('Seconds'),
  transcript: z.string().nullable(),
  recording_url: z.string().nullable(),
  request_data: z.unknown(),
});

/** A call record on the wire. */
export type CallRecord = z.output<typeof CallRecord>;

/**
 * One calls row in the GET /v1/calls/get wire shape: the fields the platform is seen to send, then the added ones.
 * A leg has `is_transfer: true` and no `answered_by`; a transferred parent has `transfer: true`.
 */
export function presentCallRecord(row: CallRowJson): CallRecord {
  const isLeg = row.parent_id !== null && row.parent_id !== undefined;
  const start = iso(row.call_start);
  const end = iso(row.call_end);
  const duration = opt(row.duration) ?? (start && end ? Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000)) : null);
  return {
    call_id: row.id,
    phone_to: row.phone_to,
    phone_from: row.phone_from,
    call_start: start,
    call_end: end,
    disposition: opt(row.disposition),
    ...(isLeg ? { is_transfer: true as const } : { answered_by: opt(row.answered_by) }),
    agent: opt(row.agent_id),
    direction: row.direction,
    ...(!isLeg && row.transferred === true ? { transfer: true as const } : {}),
    status: row.status,
    ended_reason: opt(row.ended_reason),
    duration,
    transcript: opt(row.transcript),
    recording_url: opt(row.recording_url),
    request_data: opt(row.request_data),
  };
}
