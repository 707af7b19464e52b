import { z } from 'zod';
import { defineAction } from '../define';
import { bookingOf, bookingOutput, type CalBooking } from './booking-output';

const input = z
  .object({
    start: z.string().min(1).describe('Start of the booking in UTC, ISO 8601 (2050-09-05T10:00:00Z)'),
    eventTypeId: z.number().int().positive().optional().describe('The event type to book (or eventTypeSlug with username/teamSlug)'),
    eventTypeSlug: z.string().min(1).optional().describe('Event type slug; needs username or teamSlug'),
    username: z.string().min(1).optional().describe('Owner of the event type named by eventTypeSlug'),
    teamSlug: z.string().min(1).optional().describe('Team owning the event type named by eventTypeSlug'),
    attendee: z
      .object({
        name: z.string().min(1).describe("Attendee's name"),
        email: z.email().optional().describe("Attendee's email (or phoneNumber)"),
        timeZone: z.string().min(1).describe("Attendee's IANA time zone (America/New_York)"),
        phoneNumber: z.string().min(1).optional().describe("Attendee's phone in E.164, for SMS reminders"),
        language: z.string().min(2).optional().describe("Attendee's language code (en)"),
      })
      .refine((a) => a.email !== undefined || a.phoneNumber !== undefined, { message: 'email or phoneNumber is required', path: ['email'] })
      .describe('Who the booking is for'),
    guests: z.array(z.email()).optional().describe('Extra guest emails'),
    lengthInMinutes: z.number().int().positive().optional().describe('Length, for event types with several durations'),
    bookingFieldsResponses: z.record(z.string(), z.unknown()).optional().describe('Answers to the event type booking questions, by field slug'),
    metadata: z.record(z.string(), z.string()).optional().describe('Up to 50 string key/value pairs stored on the booking'),
  })
  .refine((v) => v.eventTypeId !== undefined || (v.eventTypeSlug !== undefined && (v.username ?? v.teamSlug) !== undefined), {
    message: 'eventTypeId, or eventTypeSlug with username or teamSlug, is required',
    path: ['eventTypeId'],
  });

/** Books a slot (`POST /v2/bookings`, cal-api-version 2024-08-13). */
export const createBooking = defineAction({
  key: 'create_booking',
  title: 'Book a slot',
  input,
  output: bookingOutput,
  idempotent: false,
  docs: 'https://cal.com/docs/api-reference/v2/bookings/create-a-booking',
  async run(params, { http }) {
    const res = await http.request<{ data?: CalBooking }>({
      method: 'POST',
      path: '/v2/bookings',
      headers: { 'cal-api-version': '2024-08-13' },
      json: params,
    });
    return bookingOf(res.body, res.status);
  },
});
