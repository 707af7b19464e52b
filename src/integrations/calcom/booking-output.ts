import { z } from 'zod';
import { VendorError } from '../define';

/** A booking as Cal.com v2 returns it under `data`. */
export interface CalBooking {
  uid: string;
  id?: number;
  status?: string;
  start?: string;
  end?: string;
  meetingUrl?: string;
}

/** The output shape of the booking actions. */
export const bookingOutput = z.object({
  uid: z.string().describe('Booking uid'),
  id: z.number().optional(),
  status: z.string().optional(),
  start: z.string().optional(),
  end: z.string().optional(),
  meetingUrl: z.string().optional(),
});

/** The booking out of a Cal.com answer, or a failure when there is none. */
export function bookingOf(body: { data?: CalBooking }, status: number): z.infer<typeof bookingOutput> {
  const b = body.data;
  if (!b?.uid) throw new VendorError('vendor_error_in_body', 'Cal.com answered without a booking', false, status);
  return { uid: b.uid, id: b.id, status: b.status, start: b.start, end: b.end, meetingUrl: b.meetingUrl };
}
