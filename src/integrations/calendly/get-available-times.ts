import { z } from 'zod';
import { defineAction } from '../define';

/** Calendly answers at most a week of available times per request. */
const WEEK_MS = 7 * 24 * 3600 * 1000;

const input = z
  .object({
    event_type: z.url().describe('URI of the event type (https://api.calendly.com/event_types/…)'),
    start_time: z.iso.datetime({ offset: true }).describe('Start of the range (ISO 8601, in the future)'),
    end_time: z.iso.datetime({ offset: true }).describe('End of the range (ISO 8601, at most 7 days after start_time)'),
  })
  .refine((v) => Date.parse(v.end_time) > Date.parse(v.start_time) && Date.parse(v.end_time) - Date.parse(v.start_time) <= WEEK_MS, {
    message: 'end_time must be after start_time and at most 7 days later (Calendly’s limit)',
    path: ['end_time'],
  });

const output = z.object({
  times: z.array(z.object({ start_time: z.string(), scheduling_url: z.string().optional(), invitees_remaining: z.number().optional() })),
});

/** Bookable start times of an event type within up to a week (`GET /event_type_available_times`). */
export const getAvailableTimes = defineAction({
  key: 'get_available_times',
  title: 'Find free times',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.calendly.com/api-docs/calendly-api/availability/list-event-type-available-times',
  async run(params, { http }) {
    const res = await http.request<{ collection?: Array<{ start_time: string; scheduling_url?: string; invitees_remaining?: number }> }>({
      method: 'GET',
      path: '/event_type_available_times',
      query: { event_type: params.event_type, start_time: params.start_time, end_time: params.end_time },
    });
    return {
      times: (res.body.collection ?? []).map((t) => ({ start_time: t.start_time, scheduling_url: t.scheduling_url, invitees_remaining: t.invitees_remaining })),
    };
  },
});
