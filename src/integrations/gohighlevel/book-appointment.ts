import { z } from 'zod';
import { defineAction } from '../define';
import { ghlId, locationId } from './location';

const input = z
  .object({
    calendarId: ghlId.describe('The calendar'),
    contactId: ghlId.describe('The contact the appointment is with'),
    locationId: ghlId.optional().describe('Sub-account id; defaults to the connection setting location_id'),
    startTime: z.iso.datetime({ offset: true }).describe('Start (ISO 8601 with offset), e.g. a slot from find_slots'),
    endTime: z.iso.datetime({ offset: true }).optional().describe('End; the calendar’s slot length when omitted'),
    title: z.string().max(255).optional(),
    appointmentStatus: z.enum(['new', 'confirmed']).default('confirmed'),
    assignedUserId: ghlId.optional(),
    address: z.string().max(1024).optional().describe('Meeting location or link'),
    toNotify: z.boolean().optional().describe('Run the calendar notifications and workflows'),
  })
  .strict();

const output = z.object({ id: z.string(), startTime: z.string().optional() });

/** Books an appointment on a calendar for a contact. */
export default defineAction({
  key: 'book_appointment',
  title: 'Book an appointment',
  input,
  output,
  idempotent: false,
  docs: 'https://marketplace.gohighlevel.com/docs/ghl/calendars/create-appointment',
  async run(p, { http, connection }) {
    const json = { ...p, locationId: locationId(p.locationId, connection) };
    const res = await http.request<{ id: string; startTime?: string }>({
      method: 'POST',
      path: '/calendars/events/appointments',
      json,
      headers: { version: '2021-04-15' },
    });
    return { id: res.body.id, ...(res.body.startTime ? { startTime: res.body.startTime } : {}) };
  },
});
