import { z } from 'zod';
import { defineAction } from '../define';
import { bookingOf, bookingOutput, type CalBooking } from './booking-output';

const input = z.object({ bookingUid: z.string().min(1).describe('Uid of the booking') }).strict();

/** A booking's current state, e.g. before cancelling or rescheduling it (`GET /v2/bookings/{bookingUid}`). */
export const getBooking = defineAction({
  key: 'get_booking',
  title: 'Get a booking',
  input,
  output: bookingOutput,
  idempotent: true,
  docs: 'https://cal.com/docs/api-reference/v2/bookings/get-a-booking',
  async run(params, { http }) {
    const res = await http.request<{ data?: CalBooking }>({
      method: 'GET',
      path: `/v2/bookings/${encodeURIComponent(params.bookingUid)}`,
      headers: { 'cal-api-version': '2024-08-13' },
    });
    return bookingOf(res.body, res.status);
  },
});
