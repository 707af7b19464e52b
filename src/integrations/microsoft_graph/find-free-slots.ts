import { z } from 'zod';
import { ActionInputError, defineAction } from '../define';
import { mailbox, mailboxPath } from './mailbox';

const instant = z.iso.datetime({ offset: true }).describe('An ISO 8601 instant with offset, e.g. 2026-12-01T09:00:00+01:00');
const DAY = 24 * 60 * 60 * 1000;

const input = z
  .object({
    from: instant.describe('Start of the search window'),
    to: instant.describe('End of the search window (at most 62 days after from)'),
    durationMinutes: z
      .number()
      .int()
      .min(5)
      .max(8 * 60)
      .default(30),
    stepMinutes: z.number().int().min(5).max(240).default(15).describe('Slots start on this grid from the window start'),
    schedules: z.array(z.email()).min(1).max(20).optional().describe("Whose availability to combine (mailbox addresses); defaults to the mailbox's own"),
    maxSlots: z.number().int().min(1).max(50).default(5),
    tentativeIsBusy: z.boolean().default(true),
    mailbox,
  })
  .strict()
  .refine((p) => Date.parse(p.to) > Date.parse(p.from), { message: 'to must be after from', path: ['to'] })
  .refine((p) => Date.parse(p.to) - Date.parse(p.from) <= 62 * DAY, { message: 'the window is at most 62 days', path: ['to'] });

const output = z.object({ slots: z.array(z.object({ start: z.string(), end: z.string() })), busy: z.number() });

interface ScheduleItem {
  status: string;
  start: { dateTime: string };
  end: { dateTime: string };
}

/** Graph's UTC wall-clock form (no offset) of an instant. */
const utcWallClock = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '');

/** Finds free slots across one or more calendars (calendar: getSchedule, asked for in UTC), for booking after a call. */
export default defineAction({
  key: 'find_free_slots',
  title: 'Find free slots',
  input,
  output,
  idempotent: true,
  docs: 'https://learn.microsoft.com/en-us/graph/api/calendar-getschedule?view=graph-rest-1.0',
  async run(p, { http, connection }) {
    const from = Date.parse(p.from);
    const to = Date.parse(p.to);
    const schedules = p.schedules ?? [p.mailbox ?? connection.settings.email].filter((s): s is string => !!s);
    if (!schedules.length)
      throw new ActionInputError('invalid_params', 'give schedules (or mailbox): the connection has no email setting', [
        'schedules: required when the connection has no email setting',
      ]);
    const res = await http.request<{ value?: Array<{ scheduleItems?: ScheduleItem[] }> }>({
      method: 'POST',
      path: `${mailboxPath(p.mailbox)}/calendar/getSchedule`,
      headers: { Prefer: 'outlook.timezone="UTC"' },
      json: {
        schedules,
        startTime: { dateTime: utcWallClock(from), timeZone: 'UTC' },
        endTime: { dateTime: utcWallClock(to), timeZone: 'UTC' },
        availabilityViewInterval: Math.min(p.stepMinutes, 60),
      },
    });
    const blocking = new Set(['busy', 'oof', ...(p.tentativeIsBusy ? ['tentative'] : [])]);
    // Times come back in UTC (the Prefer header) as wall clocks without an offset.
    const busy = (res.body.value ?? [])
      .flatMap((s) => s.scheduleItems ?? [])
      .filter((i) => blocking.has(i.status.toLowerCase()))
      .map((i) => ({ start: Date.parse(`${i.start.dateTime.replace(/Z$/, '')}Z`), end: Date.parse(`${i.end.dateTime.replace(/Z$/, '')}Z`) }));
    const length = p.durationMinutes * 60_000;
    const slots: Array<{ start: string; end: string }> = [];
    for (let start = from; start + length <= to && slots.length < p.maxSlots; start += p.stepMinutes * 60_000) {
      const end = start + length;
      if (!busy.some((b) => b.start < end && b.end > start)) slots.push({ start: new Date(start).toISOString(), end: new Date(end).toISOString() });
    }
    return { slots, busy: busy.length };
  },
});
