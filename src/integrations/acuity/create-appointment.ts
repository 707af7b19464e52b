import { z } from 'zod';
import { defineAction } from '../define';
import { appointmentOf, appointmentOutput, type AcuityAppointment } from './appointment-output';

const input = z
  .object({
    datetime: z.iso.datetime({ offset: true }).describe('Start with its offset (2026-02-03T14:00:00-08:00)'),
    appointmentTypeID: z.number().int().positive().describe('Appointment type id'),
    firstName: z.string().min(1).describe("Client's first name"),
    lastName: z.string().min(1).describe("Client's last name"),
    email: z.email().describe("Client's email"),
    phone: z.string().min(1).optional().describe("Client's phone"),
    calendarID: z.number().int().positive().optional().describe('Calendar; Acuity picks an available one when omitted'),
    timezone: z.string().min(1).optional().describe("Client's IANA time zone"),
    notes: z.string().optional().describe('Notes (admin bookings only)'),
    fields: z
      .array(z.object({ id: z.number().int().describe('Intake form field id'), value: z.string().describe('Field value') }))
      .optional()
      .describe('Intake form answers by field id (Acuity places custom fields here)'),
    admin: z.boolean().optional().describe('Book as an admin: skips availability checks, needs calendarID'),
  })
  .refine((v) => !v.admin || v.calendarID !== undefined, { message: 'admin bookings need a calendarID', path: ['calendarID'] });

/** Books an appointment (`POST /appointments`; `?admin=true` books as an admin). */
export const createAppointment = defineAction({
  key: 'create_appointment',
  title: 'Book an appointment',
  input,
  output: appointmentOutput,
  idempotent: false,
  docs: 'https://developers.acuityscheduling.com/reference/post-appointments',
  async run({ admin, ...body }, { http }) {
    const res = await http.request<AcuityAppointment>({
      method: 'POST',
      path: '/appointments',
      query: admin ? { admin: true } : undefined,
      json: body,
    });
    return appointmentOf(res.body, res.status);
  },
});
