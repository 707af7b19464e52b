import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import appointment from './appointment';
import cancelAppointment from './cancel-appointment';
import checkAvailability from './check-availability';
import listEvents from './list-events';
import rescheduleAppointment from './reschedule-appointment';

/** Google Calendar (v3), by OAuth. */
export default defineIntegration({
  key: 'google_calendar',
  name: 'Google Calendar',
  auth: bearerAuth(['oauth2'], {
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scopes: ['https://www.googleapis.com/auth/calendar.events', 'https://www.googleapis.com/auth/calendar.freebusy'],
  }),
  baseUrl: 'https://www.googleapis.com',
  apiDescription: 'google-calendar.json',
  // Stored journeys may omit the action: it was the only one.
  defaultAction: 'appointment',
  actions: [appointment, checkAvailability, listEvents, rescheduleAppointment, cancelAppointment],
});
