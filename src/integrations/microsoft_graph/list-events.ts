import { z } from 'zod';
import { defineAction } from '../define';
import { utcInstant, type GraphTime } from './event-api';
import { mailbox, mailboxPath } from './mailbox';

const instant = z.iso.datetime({ offset: true });

const input = z
  .object({
    from: instant.describe('Events ending after this instant'),
    to: instant.describe('Events starting before this instant'),
    top: z.number().int().min(1).max(100).default(50),
    mailbox,
  })
  .strict()
  .refine((p) => Date.parse(p.to) > Date.parse(p.from), { message: 'to must be after from', path: ['to'] });

const event = z.object({
  id: z.string(),
  subject: z.string().nullable(),
  start: z.string(),
  end: z.string(),
  isCancelled: z.boolean(),
  webLink: z.string().nullable(),
});
const output = z.object({ events: z.array(event), more: z.boolean().describe('More events than top fall in the window') });

interface GraphEvent {
  id: string;
  subject?: string;
  start?: GraphTime;
  end?: GraphTime;
  isCancelled?: boolean;
  webLink?: string;
}

/** Lists the events in a window, recurring ones expanded, by start (calendarView, in UTC). */
export default defineAction({
  key: 'list_events',
  title: 'List events',
  input,
  output,
  idempotent: true,
  docs: 'https://learn.microsoft.com/en-us/graph/api/user-list-calendarview?view=graph-rest-1.0',
  async run(p, { http }) {
    const query = {
      startDateTime: new Date(p.from).toISOString(),
      endDateTime: new Date(p.to).toISOString(),
      $top: p.top,
      $orderby: 'start/dateTime',
      $select: 'id,subject,start,end,isCancelled,webLink',
    };
    const res = await http.request<{ value?: GraphEvent[]; '@odata.nextLink'?: string }>({
      method: 'GET',
      path: `${mailboxPath(p.mailbox)}/calendarView`,
      query,
      headers: { Prefer: 'outlook.timezone="UTC"' },
    });
    const events = (res.body.value ?? []).map((e) => ({
      id: e.id,
      subject: e.subject ?? null,
      start: utcInstant(e.start),
      end: utcInstant(e.end),
      isCancelled: e.isCancelled ?? false,
      webLink: e.webLink ?? null,
    }));
    return { events, more: res.body['@odata.nextLink'] !== undefined };
  },
});
