import { z } from 'zod';
import { defineAction } from '../define';

const input = z.object({
  appointmentTypeID: z.number().int().positive().describe('Appointment type to find times for'),
  date: z.iso.date().describe('Day to look at (YYYY-MM-DD)'),
  calendarID: z.number().int().positive().optional().describe('Restrict to one calendar'),
  timezone: z.string().min(1).optional().describe('IANA time zone the times are returned in'),
});

const output = z.object({
  times: z.array(z.object({ time: z.string().describe('Start, ISO 8601 with offset'), slotsAvailable: z.number().optional() })),
});

/** Open start times for an appointment type on one day (`GET /availability/times`). */
export const getAvailableTimes = defineAction({
  key: 'get_available_times',
  title: 'Find free times',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.acuityscheduling.com/reference/get-availability-times',
  async run(params, { http }) {
    const res = await http.request<Array<{ time: string; slotsAvailable?: number }>>({
      method: 'GET',
      path: '/availability/times',
      query: { appointmentTypeID: params.appointmentTypeID, date: params.date, calendarID: params.calendarID, timezone: params.timezone },
    });
    const times = Array.isArray(res.body) ? res.body : [];
    return { times: times.map((t) => ({ time: t.time, slotsAvailable: t.slotsAvailable })) };
  },
});
