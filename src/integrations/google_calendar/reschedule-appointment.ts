import { z } from 'zod';
import { defineAction } from '../define';
import { calendarId, eventId, eventsPath, sendUpdates, timeOf, type EventTime } from './calendar-api';

const input = z
  .object({
    calendarId,
    eventId: eventId.describe('The id the appointment action returned'),
    start: z.iso.datetime({ offset: true }).describe('New start (ISO 8601 with offset)'),
    durationMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    timeZone: z.string().min(1).max(64).optional(),
    sendUpdates,
  })
  .strict();

const output = z.object({ id: z.string(), start: z.string(), end: z.string(), htmlLink: z.string().nullable() });

/** Moves an event to a new start (events.patch of start and end; the rest of the event is kept). */
export default defineAction({
  key: 'reschedule_appointment',
  title: 'Reschedule an appointment',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.google.com/calendar/api/v3/reference/events/patch',
  async run(p, { http }) {
    const start = Date.parse(p.start);
    const when = (ms: number) => ({ dateTime: new Date(ms).toISOString(), ...(p.timeZone ? { timeZone: p.timeZone } : {}) });
    const json = { start: when(start), end: when(start + p.durationMinutes * 60_000) };
    const res = await http.request<{ id: string; htmlLink?: string; start?: EventTime; end?: EventTime }>({
      method: 'PATCH',
      path: eventsPath(p.calendarId, p.eventId),
      query: { sendUpdates: p.sendUpdates },
      json,
    });
    return {
      id: res.body.id,
      start: timeOf(res.body.start) || json.start.dateTime,
      end: timeOf(res.body.end) || json.end.dateTime,
      htmlLink: res.body.htmlLink ?? null,
    };
  },
});
