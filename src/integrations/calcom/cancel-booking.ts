import { z } from 'zod';
import { defineAction } from '../define';
import { bookingOf, bookingOutput, type CalBooking } from './booking-output';

const input = z.object({
  bookingUid: z.string().min(1).describe('Uid of the booking to cancel'),
  cancellationReason: z.string().max(500).optional().describe('Why, shown to the organizer'),
});

/** Cancels a booking (`POST /v2/bookings/{bookingUid}/cancel`, cal-api-version 2024-08-13). */
export const cancelBooking = defineAction({
  key: 'cancel_booking',
  title: 'Cancel a booking',
  input,
  output: bookingOutput,
  idempotent: true,
  docs: 'https://cal.com/docs/api-reference/v2/bookings/cancel-a-booking',
  async run(params, { http }) {
    const res = await http.request<{ data?: CalBooking }>({
      method: 'POST',
      path: `/v2/bookings/${encodeURIComponent(params.bookingUid)}/cancel`,
      headers: { 'cal-api-version': '2024-08-13' },
      json: params.cancellationReason ? { cancellationReason: params.cancellationReason } : {},
    });
    return bookingOf(res.body, res.status);
  },
});
