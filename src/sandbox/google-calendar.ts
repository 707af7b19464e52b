import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { objectBody, SANDBOX_PREFIXES, SANDBOX_TOKEN, type SandboxVendor, type VendorAnswer, type VendorCall } from './vendor';

const when = z
  .object({ date: z.iso.date().optional(), dateTime: z.iso.datetime({ offset: true }).optional(), timeZone: z.string().optional() })
  .strict()
  .refine((w) => !!w.date !== !!w.dateTime, 'one of date or dateTime');
// The Event resource fields events.insert takes (google-calendar.json); id: base32hex, 5–1024 characters.
const event = z
  .object({
    id: z
      .string()
      .regex(/^[a-v0-9]{5,1024}$/)
      .optional(),
    summary: z.string().optional(),
    description: z.string().optional(),
    location: z.string().optional(),
    start: when,
    end: when,
    attendees: z.array(z.object({ email: z.email() }).loose()).optional(),
  })
  .loose();
const freeBusy = z
  .object({ timeMin: z.iso.datetime({ offset: true }), timeMax: z.iso.datetime({ offset: true }), items: z.array(z.object({ id: z.string() })).min(1) })
  .loose();

/** Google's error body. */
const error = (code: number, status: string, reason: string, message: string): VendorAnswer => ({
  status: code,
  body: { error: { code, message, errors: [{ domain: 'global', reason, message }], status } },
});

const EVENTS = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/;
const EVENT = /^\/calendar\/v3\/calendars\/([^/]+)\/events\/([^/]+)$/;
const move = z.object({ start: when, end: when }).strict();

/**
 * Google Calendar v3: events.insert (a taken id is a 409), events.patch of start and end, events.delete (a deleted
 * event is 410 Gone), and freeBusy (every calendar is free).
 */
export function googleCalendarSandbox(): SandboxVendor {
  const events = new Map<string, Record<string, unknown>>();
  const deleted = new Set<string>();

  /** events.patch (start and end only, what reschedule_appointment sends) and events.delete of a booked event. */
  function one(call: VendorCall, key: string): VendorAnswer {
    const found = events.get(key);
    if (!found) return deleted.has(key) ? error(410, 'GONE', 'deleted', 'Resource has been deleted') : error(404, 'NOT_FOUND', 'notFound', 'Not Found');
    if (call.method === 'DELETE') {
      events.delete(key);
      deleted.add(key);
      return { status: 204, body: undefined };
    }
    const parsed = move.safeParse(objectBody(call.body));
    if (!parsed.success) return error(400, 'INVALID_ARGUMENT', 'invalid', `Invalid ${parsed.error.issues[0]?.path.join('.') || 'body'}`);
    const updated = { ...found, ...parsed.data, updated: new Date().toISOString(), sequence: Number(found.sequence ?? 0) + 1 };
    events.set(key, updated);
    return { status: 200, body: updated };
  }

  return {
    integration: 'google_calendar',
    prefix: SANDBOX_PREFIXES.google_calendar,
    handle(call) {
      const insert = call.method === 'POST' ? EVENTS.exec(call.path) : null;
      const busy = call.method === 'POST' && call.path === '/calendar/v3/freeBusy';
      const existing = call.method === 'PATCH' || call.method === 'DELETE' ? EVENT.exec(call.path) : null;
      if (!insert && !busy && !existing) return error(404, 'NOT_FOUND', 'notFound', 'Not Found');
      if (call.token !== SANDBOX_TOKEN) return error(401, 'UNAUTHENTICATED', 'authError', 'Request had invalid authentication credentials.');
      if (existing) return one(call, `${decodeURIComponent(existing[1]!)}/${decodeURIComponent(existing[2]!)}`);
      if (busy) {
        const parsed = freeBusy.safeParse(call.body);
        if (!parsed.success) return error(400, 'INVALID_ARGUMENT', 'badRequest', 'Bad Request');
        const calendars = Object.fromEntries(parsed.data.items.map((i) => [i.id, { busy: [] }]));
        return { status: 200, body: { kind: 'calendar#freeBusy', timeMin: parsed.data.timeMin, timeMax: parsed.data.timeMax, calendars } };
      }
      if (call.query.sendUpdates && !['all', 'externalOnly', 'none'].includes(call.query.sendUpdates)) {
        return error(400, 'INVALID_ARGUMENT', 'invalidParameter', 'Invalid value for sendUpdates');
      }
      const parsed = event.safeParse(objectBody(call.body));
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.join('.') || 'body';
        return error(400, 'INVALID_ARGUMENT', 'invalid', `Invalid ${field}: ${parsed.error.issues[0]?.message ?? 'bad value'}`);
      }
      const calendarId = decodeURIComponent(insert![1]!);
      const id = parsed.data.id ?? randomBytes(13).toString('hex');
      const key = `${calendarId}/${id}`;
      if (events.has(key)) return error(409, 'ALREADY_EXISTS', 'duplicate', 'The requested identifier already exists.');
      const now = new Date().toISOString();
      const created = {
        kind: 'calendar#event',
        etag: `"${Date.now()}"`,
        ...parsed.data,
        id,
        status: 'confirmed',
        htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${id} ${calendarId}`).toString('base64url')}`,
        created: now,
        updated: now,
        iCalUID: `${id}@google.com`,
        sequence: 0,
        organizer: { email: calendarId === 'primary' ? 'sandbox@example.com' : calendarId, self: true },
      };
      events.set(key, created);
      return { status: 200, body: created };
    },
  };
}
