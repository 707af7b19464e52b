import { z } from 'zod';
import { defineAction } from '../define';
import { mailbox, mailboxPath } from './mailbox';

// Graph wants a wall-clock dateTime plus a time zone name (Windows or IANA), not an offset.
const wallClock = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/, 'a local date-time without offset, e.g. 2026-12-01T10:00:00');

const input = z
  .object({
    subject: z.string().min(1).max(255),
    start: wallClock.describe('Start, local time in timeZone'),
    end: wallClock.describe('End, local time in timeZone'),
    timeZone: z.string().min(1).max(64).default('UTC').describe('Time zone of start and end (IANA or Windows name)'),
    body: z.string().max(32_000).optional().describe('Event description'),
    contentType: z.enum(['Text', 'HTML']).default('Text'),
    location: z.string().max(255).optional(),
    attendees: z
      .array(z.object({ email: z.email(), name: z.string().max(255).optional(), type: z.enum(['required', 'optional']).default('required') }).strict())
      .max(500)
      .optional(),
    isOnlineMeeting: z.boolean().optional().describe('Create a Teams meeting link for the event'),
    calendarId: z
      .string()
      .min(1)
      .regex(/^[^/?#\s]+$/)
      .optional()
      .describe('Calendar id; defaults to the default calendar'),
    mailbox,
  })
  .strict()
  .refine((p) => p.end > p.start, { message: 'end must be after start', path: ['end'] });

const output = z.object({ id: z.string(), webLink: z.string().nullable(), onlineMeetingUrl: z.string().nullable() });

/** Creates a calendar event; the run's idempotency key is the event's transactionId, so Graph creates it once on replay. */
export default defineAction({
  key: 'create_event',
  title: 'Create a calendar event',
  input,
  output,
  idempotent: true,
  docs: 'https://learn.microsoft.com/en-us/graph/api/user-post-events?view=graph-rest-1.0',
  async run(p, { http, idempotencyKey }) {
    const event = {
      subject: p.subject,
      start: { dateTime: p.start, timeZone: p.timeZone },
      end: { dateTime: p.end, timeZone: p.timeZone },
      transactionId: idempotencyKey,
      ...(p.body ? { body: { contentType: p.contentType, content: p.body } } : {}),
      ...(p.location ? { location: { displayName: p.location } } : {}),
      ...(p.attendees
        ? { attendees: p.attendees.map((a) => ({ emailAddress: { address: a.email, ...(a.name ? { name: a.name } : {}) }, type: a.type })) }
        : {}),
      ...(p.isOnlineMeeting ? { isOnlineMeeting: true, onlineMeetingProvider: 'teamsForBusiness' } : {}),
    };
    const path = `${mailboxPath(p.mailbox)}${p.calendarId ? `/calendars/${encodeURIComponent(p.calendarId)}` : ''}/events`;
    const res = await http.request<{ id: string; webLink?: string; onlineMeeting?: { joinUrl?: string } | null }>({ method: 'POST', path, json: event });
    return { id: res.body.id, webLink: res.body.webLink ?? null, onlineMeetingUrl: res.body.onlineMeeting?.joinUrl ?? null };
  },
});
