import { z } from 'zod';
import { VendorError } from '../define';

/** An appointment as Acuity returns it. */
export interface AcuityAppointment {
  id?: number;
  datetime?: string;
  confirmationPage?: string;
  canceled?: boolean;
}

/** The output shape of the appointment actions. */
export const appointmentOutput = z.object({
  id: z.number(),
  datetime: z.string().optional(),
  confirmationPage: z.string().optional(),
  canceled: z.boolean().optional(),
});

/** The appointment out of an Acuity answer, or a failure when there is none. */
export function appointmentOf(body: AcuityAppointment, status: number): z.infer<typeof appointmentOutput> {
  if (typeof body?.id !== 'number') throw new VendorError('vendor_error_in_body', 'Acuity answered without an appointment', false, status);
  return { id: body.id, datetime: body.datetime, confirmationPage: body.confirmationPage, canceled: body.canceled };
}
