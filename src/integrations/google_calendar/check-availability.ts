import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import type { Busy } from './free-slot';

const instant = z.iso.datetime({ offset: true });

const input = z
  .object({
    timeMin: instant.describe('Start of the window (ISO 8601 with offset)'),
    timeMax: instant.describe('End of the window'),
    calendarIds: z.array(z.string().min(1).max(255)).min(1).max(50).default(['primary']).describe('Calendars whose busy times count'),
    timeZone: z.string().min(1).max(64).optional(),
  })
  .strict()
  .refine((p) => Date.parse(p.timeMax) > Date.parse(p.timeMin), { message: 'timeMax must be after timeMin', path: ['timeMax'] });

const output = z.object({ free: z.boolean(), busy: z.array(z.object({ calendarId: z.string(), start: z.string(), end: z.string() })) });

/** Whether the calendars are free over a window, with their busy intervals (freeBusy.query). */
export default defineAction({
  key: 'check_availability',
  title: 'Check availability',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.google.com/calendar/api/v3/reference/freebusy/query',
  async run(p, { http }) {
    const json = { timeMin: p.timeMin, timeMax: p.timeMax, items: p.calendarIds.map((id) => ({ id })), ...(p.timeZone ? { timeZone: p.timeZone } : {}) };
    const res = await http.request<{ calendars?: Record<string, { busy?: Busy[]; errors?: Array<{ reason?: string }> }> }>({
      method: 'POST',
      path: '/calendar/v3/freeBusy',
      json,
    });
    const busy: Array<{ calendarId: string; start: string; end: string }> = [];
    for (const id of p.calendarIds) {
      const cal = res.body.calendars?.[id];
      // A calendar Google cannot read is not free: say so rather than report it empty.
      if (!cal || cal.errors?.length)
        throw new VendorError('vendor_rejected', `Google Calendar cannot read the free/busy of ${id} (${cal?.errors?.[0]?.reason ?? 'not returned'})`, false);
      for (const b of cal.busy ?? []) busy.push({ calendarId: id, start: b.start, end: b.end });
    }
    return { free: busy.length === 0, busy };
  },
});
