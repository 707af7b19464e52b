/** Timestamps in the wire form (UTC ISO-8601 with Z), from a JSON row's timestamptz text. */
const iso = (v: unknown): string | null => (typeof v === 'string' || v instanceof Date ? new Date(v).toISOString() : null);
const opt = (v: unknown) => (v === undefined ? null : v);

/**
 * One calls row in the GET /v1/calls/get wire shape: the fields the platform is seen to send, then the added ones.
 * A leg has `is_transfer: true` and no `answered_by`; a transferred parent has `transfer: true`.
 */
export function presentCallRecord(row: Record<string, unknown>): Record<string, unknown> {
  const isLeg = row.parent_id !== null && row.parent_id !== undefined;
  const start = iso(row.call_start);
  const end = iso(row.call_end);
  const duration = row.duration ?? (start && end ? Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000)) : null);
  return {
    call_id: row.id,
    phone_to: row.phone_to,
    phone_from: row.phone_from,
    call_start: start,
    call_end: end,
    disposition: opt(row.disposition),
    ...(isLeg ? { is_transfer: true } : { answered_by: opt(row.answered_by) }),
    agent: opt(row.agent_id),
    direction: row.direction,
    ...(!isLeg && row.transferred === true ? { transfer: true } : {}),
    status: row.status,
    ended_reason: opt(row.ended_reason),
    duration,
    transcript: opt(row.transcript),
    recording_url: opt(row.recording_url),
    request_data: opt(row.request_data),
  };
}
