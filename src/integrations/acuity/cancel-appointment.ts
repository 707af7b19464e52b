import { z } from 'zod';
import { defineAction } from '../define';
import { appointmentOf, appointmentOutput, type AcuityAppointment } from './appointment-output';

const input = z.object({
  id: z.number().int().positive().describe('Appointment id'),
  cancelNote: z.string().max(1000).optional().describe('Why, kept on the appointment'),
});

/** Cancels an appointment (`PUT /appointments/{id}/cancel`). */
export const cancelAppointment = defineAction({
  key: 'cancel_appointment',
  title: 'Cancel an appointment',
  input,
  output: appointmentOutput,
  idempotent: true,
  docs: 'https://developers.acuityscheduling.com/reference/put-appointments-id-cancel',
  async run({ id, cancelNote }, { http }) {
    const res = await http.request<AcuityAppointment>({ method: 'PUT', path: `/appointments/${id}/cancel`, json: cancelNote ? { cancelNote } : {} });
    return appointmentOf(res.body, res.status);
  },
});
