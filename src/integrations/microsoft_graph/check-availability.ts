import { z } from 'zod';
import { ActionInputError, defineAction } from '../define';
import { mailbox, mailboxPath } from './mailbox';

const instant = z.iso.datetime({ offset: true });

const input = z
  .object({
    from: instant.describe('Start of the window (ISO 8601 with offset)'),
    to: instant.describe('End of the window (at most 62 days after from)'),
    schedules: z.array(z.email()).min(1).max(20).optional().describe("Whose availability (mailbox addresses); defaults to the mailbox's own"),
    tentativeIsBusy: z.boolean().default(true),
    mailbox,
  })
  .strict()
  .refine((p) => Date.parse(p.to) > Date.parse(p.from), { message: 'to must be after from', path: ['to'] })
  .refine((p) => Date.parse(p.to) - Date.parse(p.from) <= 62 * 86_400_000, { message: 'the window is at most 62 days', path: ['to'] });

const output = z.object({ free: z.boolean(), busy: z.array(z.object({ schedule: z.string(), status: z.string(), start: z.string(), end: z.string() })) });

interface Schedule {
  scheduleId: string;
  error?: { message?: string };
  scheduleItems?: Array<{ status: string; start: { dateTime: string }; end: { dateTime: string } }>;
}

const utc = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '');
const instantOf = (wall: string) => new Date(`${wall.replace(/Z$/, '')}Z`).toISOString();

/** Whether the schedules are free over a window, with their busy intervals (calendar: getSchedule, in UTC). */
export default defineAction({
  key: 'check_availability',
  title: 'Check availability',
  input,
  output,
  idempotent: true,
  docs: 'https://learn.microsoft.com/en-us/graph/api/calendar-getschedule?view=graph-rest-1.0',
  async run(p, { http, connection }) {
    const schedules = p.schedules ?? [p.mailbox ?? connection.settings.email].filter((s): s is string => !!s);
    if (!schedules.length)
      throw new ActionInputError('invalid_params', 'give schedules (or mailbox): the connection has no email setting', [
        'schedules: required when the connection has no email setting',
      ]);
    const res = await http.request<{ value?: Schedule[] }>({
      method: 'POST',
      path: `${mailboxPath(p.mailbox)}/calendar/getSchedule`,
      headers: { Prefer: 'outlook.timezone="UTC"' },
      json: { schedules, startTime: { dateTime: utc(Date.parse(p.from)), timeZone: 'UTC' }, endTime: { dateTime: utc(Date.parse(p.to)), timeZone: 'UTC' } },
    });
    const blocking = new Set(['busy', 'oof', 'workingelsewhere', ...(p.tentativeIsBusy ? ['tentative'] : [])]);
    const busy = (res.body.value ?? []).flatMap((s) =>
      (s.scheduleItems ?? [])
        .filter((i) => blocking.has(i.status.toLowerCase()))
        .map((i) => ({ schedule: s.scheduleId, status: i.status, start: instantOf(i.start.dateTime), end: instantOf(i.end.dateTime) })),
    );
    return { free: busy.length === 0, busy };
  },
});
