import { z } from 'zod';
import { defineAction } from '../define';
import { eventId, utcInstant, wallClock, type GraphTime } from './event-api';
import { mailbox, mailboxPath } from './mailbox';

const input = z
  .object({
    eventId,
    start: wallClock.describe('New start, local time in timeZone'),
    end: wallClock.describe('New end, local time in timeZone'),
    timeZone: z.string().min(1).max(64).default('UTC'),
    mailbox,
  })
  .strict()
  .refine((p) => p.end > p.start, { message: 'end must be after start', path: ['end'] });

const output = z.object({ id: z.string(), start: z.string(), end: z.string(), webLink: z.string().nullable() });

/** Moves an event to a new start and end (event: update; attendees get Outlook's update). */
export default defineAction({
  key: 'reschedule_event',
  title: 'Reschedule an appointment',
  input,
  output,
  idempotent: true,
  docs: 'https://learn.microsoft.com/en-us/graph/api/event-update?view=graph-rest-1.0',
  async run(p, { http }) {
    const json = { start: { dateTime: p.start, timeZone: p.timeZone }, end: { dateTime: p.end, timeZone: p.timeZone } };
    const res = await http.request<{ id: string; start?: GraphTime; end?: GraphTime; webLink?: string }>({
      method: 'PATCH',
      path: `${mailboxPath(p.mailbox)}/events/${encodeURIComponent(p.eventId)}`,
      headers: { Prefer: 'outlook.timezone="UTC"' },
      json,
    });
    return { id: res.body.id, start: utcInstant(res.body.start), end: utcInstant(res.body.end), webLink: res.body.webLink ?? null };
  },
});
