import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { firstFreeSlot, type Busy } from './free-slot';

const input = z
  .object({
    calendarId: z.string().min(1).default('primary'),
    summary: z.string().min(1).max(1024),
    description: z.string().max(8192).optional(),
    location: z.string().max(1024).optional(),
    start: z.iso.datetime({ offset: true }).describe('Wanted start (ISO 8601 with offset)'),
    durationMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    timeZone: z.string().min(1).max(64).optional(),
    attendees: z
      .array(z.object({ email: z.email(), displayName: z.string().optional() }).strict())
      .max(100)
      .default([]),
    findFreeSlot: z.boolean().default(false).describe('Look up free/busy first and book the first free slot at or after start'),
    searchDays: z.number().int().min(1).max(31).default(7),
    slotStepMinutes: z.number().int().min(5).max(240).default(15),
    sendUpdates: z.enum(['all', 'externalOnly', 'none']).default('none'),
  })
  .strict();

const output = z.object({ id: z.string(), htmlLink: z.string().optional(), start: z.string(), end: z.string(), existing: z.boolean() });

const MINUTE = 60_000;

/** Creates an event (finding the first free slot first when asked); its id derives from the run, so a replay books once. */
export default defineAction({
  key: 'appointment',
  title: 'Book an appointment',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.google.com/calendar/api/v3/reference/events/insert',
  async run(p, { http, idempotencyKey }) {
    const durationMs = p.durationMinutes * MINUTE;
    let start = Date.parse(p.start);
    if (p.findFreeSlot) {
      const until = start + p.searchDays * 24 * 60 * MINUTE;
      const res = await http.request<{ calendars?: Record<string, { busy?: Busy[]; errors?: Array<{ reason?: string }> }> }>({
        method: 'POST',
        path: '/calendar/v3/freeBusy',
        json: { timeMin: new Date(start).toISOString(), timeMax: new Date(until).toISOString(), items: [{ id: p.calendarId }] },
      });
      const cal = res.body.calendars?.[p.calendarId];
      if (cal?.errors?.length)
        throw new VendorError('vendor_rejected', `Google Calendar cannot read that calendar's free/busy (${cal.errors[0]?.reason ?? 'unknown'})`, false);
      const slot = firstFreeSlot(start, until, durationMs, p.slotStepMinutes * MINUTE, cal?.busy ?? []);
      if (slot === undefined)
        throw new VendorError('no_free_slot', `no free ${p.durationMinutes}-minute slot within ${p.searchDays} days of the wanted start`, false);
      start = slot;
    }
    // Google accepts a client-chosen event id (base32hex: 0-9a-v); hex is a subset, and a duplicate answers 409.
    const id = createHash('sha256').update(`switchboard:${idempotencyKey}`).digest('hex').slice(0, 40);
    const when = (ms: number) => ({ dateTime: new Date(ms).toISOString(), ...(p.timeZone ? { timeZone: p.timeZone } : {}) });
    const event = {
      id,
      summary: p.summary,
      ...(p.description ? { description: p.description } : {}),
      ...(p.location ? { location: p.location } : {}),
      start: when(start),
      end: when(start + durationMs),
      ...(p.attendees.length ? { attendees: p.attendees } : {}),
    };
    try {
      const res = await http.request<{ id: string; htmlLink?: string }>({
        method: 'POST',
        path: `/calendar/v3/calendars/${encodeURIComponent(p.calendarId)}/events`,
        query: { sendUpdates: p.sendUpdates },
        json: event,
      });
      return { id: res.body.id, htmlLink: res.body.htmlLink, start: event.start.dateTime, end: event.end.dateTime, existing: false };
    } catch (err) {
      if (err instanceof VendorError && err.status === 409) return { id, start: event.start.dateTime, end: event.end.dateTime, existing: true };
      throw err;
    }
  },
});
