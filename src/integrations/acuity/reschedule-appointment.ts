import { z } from 'zod';
import { defineAction } from '../define';
import { appointmentOf, appointmentOutput, type AcuityAppointment } from './appointment-output';

const input = z.object({
  id: z.number().int().positive().describe('Appointment id'),
  datetime: z.iso.datetime({ offset: true }).describe('New start with its offset (2026-02-03T15:00:00-08:00)'),
  calendarID: z.number().int().positive().optional().describe('Move it to this calendar'),
  timezone: z.string().min(1).optional().describe("Client's IANA time zone"),
});

/** Moves an appointment to a new time (`PUT /appointments/{id}/reschedule`; availability is checked as for a client). */
export const rescheduleAppointment = defineAction({
  key: 'reschedule_appointment',
  title: 'Reschedule an appointment',
  input,
  output: appointmentOutput,
  idempotent: true,
  docs: 'https://developers.acuityscheduling.com/reference/put-appointments-id-reschedule',
  async run({ id, ...body }, { http }) {
    const res = await http.request<AcuityAppointment>({ method: 'PUT', path: `/appointments/${id}/reschedule`, json: body });
    return appointmentOf(res.body, res.status);
  },
});
