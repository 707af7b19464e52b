import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    eventTypeId: z.number().int().positive().optional().describe('The event type to find slots for (or eventTypeSlug with username/teamSlug)'),
    eventTypeSlug: z.string().min(1).optional().describe('Event type slug; needs username or teamSlug'),
    username: z.string().min(1).optional().describe('Owner of the event type named by eventTypeSlug'),
    teamSlug: z.string().min(1).optional().describe('Team owning the event type named by eventTypeSlug'),
    organizationSlug: z.string().min(1).optional().describe('Organization of the user or team'),
    start: z.string().min(1).describe('Start of the range, UTC ISO 8601 date or date-time (2050-09-05)'),
    end: z.string().min(1).describe('End of the range, UTC ISO 8601 date or date-time (2050-09-06)'),
    timeZone: z.string().min(1).optional().describe('IANA time zone the slots are returned in; UTC by default'),
    duration: z.number().int().positive().optional().describe('Length in minutes, for event types with several durations'),
  })
  .refine((v) => v.eventTypeId !== undefined || (v.eventTypeSlug !== undefined && (v.username ?? v.teamSlug) !== undefined), {
    message: 'eventTypeId, or eventTypeSlug with username or teamSlug, is required',
    path: ['eventTypeId'],
  });

const output = z.object({
  slots: z.record(z.string(), z.array(z.object({ start: z.string(), end: z.string().optional() }))).describe('Free slots by date'),
});

/** Free slots of an event type between two dates (`GET /v2/slots`, cal-api-version 2024-09-04). */
export const getSlots = defineAction({
  key: 'get_slots',
  title: 'Find free slots',
  input,
  output,
  idempotent: true,
  docs: 'https://cal.com/docs/api-reference/v2/slots/get-available-time-slots-for-an-event-type',
  async run(params, { http }) {
    const res = await http.request<{ data?: Record<string, Array<{ start: string; end?: string }>> }>({
      method: 'GET',
      path: '/v2/slots',
      headers: { 'cal-api-version': '2024-09-04' },
      query: {
        eventTypeId: params.eventTypeId,
        eventTypeSlug: params.eventTypeSlug,
        username: params.username,
        teamSlug: params.teamSlug,
        organizationSlug: params.organizationSlug,
        start: params.start,
        end: params.end,
        timeZone: params.timeZone,
        duration: params.duration,
        format: 'range',
      },
    });
    return { slots: res.body.data ?? {} };
  },
});
