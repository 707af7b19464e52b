import { z } from 'zod';
import { defineAction } from '../define';
import { calendarId, eventsPath, timeOf, type EventTime } from './calendar-api';

const instant = z.iso.datetime({ offset: true });

const input = z
  .object({
    calendarId,
    timeMin: instant.describe('Events ending after this instant'),
    timeMax: instant.describe('Events starting before this instant'),
    q: z.string().min(1).max(200).optional().describe('Free text (summary, description, location, attendees)'),
    maxResults: z.number().int().min(1).max(250).default(50),
    pageToken: z.string().min(1).optional(),
  })
  .strict()
  .refine((p) => Date.parse(p.timeMax) > Date.parse(p.timeMin), { message: 'timeMax must be after timeMin', path: ['timeMax'] });

const event = z.object({
  id: z.string(),
  summary: z.string().nullable(),
  start: z.string(),
  end: z.string(),
  status: z.string(),
  htmlLink: z.string().nullable(),
});
const output = z.object({ events: z.array(event), nextPageToken: z.string().nullable() });

interface GoogleEvent {
  id: string;
  summary?: string;
  status?: string;
  htmlLink?: string;
  start?: EventTime;
  end?: EventTime;
}

/** Lists a calendar's events in a window, recurring ones expanded, by start time (events.list). */
export default defineAction({
  key: 'list_events',
  title: 'List events',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.google.com/calendar/api/v3/reference/events/list',
  async run(p, { http }) {
    const query = {
      timeMin: p.timeMin,
      timeMax: p.timeMax,
      singleEvents: true,
      orderBy: 'startTime',
      maxResults: p.maxResults,
      q: p.q,
      pageToken: p.pageToken,
    };
    const res = await http.request<{ items?: GoogleEvent[]; nextPageToken?: string }>({ method: 'GET', path: eventsPath(p.calendarId), query });
    const events = (res.body.items ?? []).map((e) => ({
      id: e.id,
      summary: e.summary ?? null,
      start: timeOf(e.start),
      end: timeOf(e.end),
      status: e.status ?? 'confirmed',
      htmlLink: e.htmlLink ?? null,
    }));
    return { events, nextPageToken: res.body.nextPageToken ?? null };
  },
});
