import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { calendarId, eventId, eventsPath, sendUpdates } from './calendar-api';

const input = z.object({ calendarId, eventId: eventId.describe('The id the appointment action returned'), sendUpdates }).strict();

const output = z.object({ id: z.string(), cancelled: z.literal(true), alreadyCancelled: z.boolean() });

/** Cancels (deletes) an event; one already deleted (Google's 410 Gone) counts as cancelled, so a replay succeeds. */
export default defineAction({
  key: 'cancel_appointment',
  title: 'Cancel an appointment',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.google.com/calendar/api/v3/reference/events/delete',
  async run(p, { http }) {
    try {
      await http.request({ method: 'DELETE', path: eventsPath(p.calendarId, p.eventId), query: { sendUpdates: p.sendUpdates } });
      return { id: p.eventId, cancelled: true as const, alreadyCancelled: false };
    } catch (err) {
      if (err instanceof VendorError && err.status === 410) return { id: p.eventId, cancelled: true as const, alreadyCancelled: true };
      throw err;
    }
  },
});
