import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import addNote from './add-note';
import addTags from './add-tags';
import bookAppointment from './book-appointment';
import findSlots from './find-slots';
import upsertContact from './upsert-contact';

/** HighLevel (LeadConnector API v2), by a sub-account OAuth token or Private Integration token; every call carries `Version`. */
export default defineIntegration({
  key: 'gohighlevel',
  name: 'HighLevel',
  auth: bearerAuth(['oauth2', 'api_key'], {
    tokenUrl: 'https://services.leadconnectorhq.com/oauth/token',
    scopes: ['contacts.write', 'calendars/events.write', 'calendars.readonly'],
  }),
  baseUrl: 'https://services.leadconnectorhq.com',
  headers: { version: '2021-07-28' },
  actions: [upsertContact, addTags, addNote, findSlots, bookAppointment],
});
