import { z } from 'zod';
import { defineAction } from '../define';
import { bookingOf, bookingOutput, type CalBooking } from './booking-output';

const input = z.object({
  bookingUid: z.string().min(1).describe('Uid of the booking to move'),
  start: z.iso.datetime().describe('New start in UTC, ISO 8601 (2050-09-06T10:00:00Z)'),
  reschedulingReason: z.string().max(500).optional().describe('Why, shown to the organizer'),
});

/** Moves a booking to a new start; Cal.com answers with the new booking (`POST /v2/bookings/{bookingUid}/reschedule`). */
export const rescheduleBooking = defineAction({
  key: 'reschedule_booking',
  title: 'Reschedule a booking',
  input,
  output: bookingOutput,
  idempotent: false,
  docs: 'https://cal.com/docs/api-reference/v2/bookings/reschedule-a-booking',
  async run({ bookingUid, ...body }, { http }) {
    const res = await http.request<{ data?: CalBooking }>({
      method: 'POST',
      path: `/v2/bookings/${encodeURIComponent(bookingUid)}/reschedule`,
      headers: { 'cal-api-version': '2024-08-13' },
      json: body,
    });
    return bookingOf(res.body, res.status);
  },
});
