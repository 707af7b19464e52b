import { z } from 'zod';
import { defineAction } from '../define';
import { ghlId } from './location';

const input = z
  .object({
    calendarId: ghlId.describe('The calendar'),
    startDate: z.iso.datetime({ offset: true }).describe('Start of the search window (ISO 8601)'),
    endDate: z.iso.datetime({ offset: true }).describe('End of the search window (ISO 8601)'),
    timezone: z.string().max(64).optional().describe('IANA time zone the slots are given in'),
    userId: ghlId.optional().describe('Only this team member’s slots'),
  })
  .strict()
  .refine((p) => Date.parse(p.endDate) > Date.parse(p.startDate), { message: 'endDate must be after startDate', path: ['endDate'] });

const output = z.object({ slots: z.array(z.string()) });

/** Lists a calendar's free slots in a window (the API takes epoch milliseconds; answers by day). */
export default defineAction({
  key: 'find_slots',
  title: 'Find free slots',
  input,
  output,
  idempotent: true,
  docs: 'https://marketplace.gohighlevel.com/docs/ghl/calendars/get-slots',
  async run(p, { http }) {
    const query = { startDate: Date.parse(p.startDate), endDate: Date.parse(p.endDate), timezone: p.timezone, userId: p.userId };
    const res = await http.request<Record<string, { slots?: string[] } | string>>({
      method: 'GET',
      path: `/calendars/${p.calendarId}/free-slots`,
      query,
      headers: { version: '2021-04-15' },
    });
    const slots = Object.entries(res.body ?? {})
      .filter(([day, v]) => /^\d{4}-\d{2}-\d{2}$/.test(day) && typeof v === 'object')
      .flatMap(([, v]) => (v as { slots?: string[] }).slots ?? []);
    return { slots };
  },
});
