import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import cancelEvent from './cancel-event';
import checkAvailability from './check-availability';
import createEvent from './create-event';
import findFreeSlots from './find-free-slots';
import listEvents from './list-events';
import rescheduleEvent from './reschedule-event';
import sendEmail from './send-email';

/** Microsoft Graph (v1.0) mail and calendar for Outlook / Microsoft 365, by OAuth (Microsoft identity platform). */
export default defineIntegration({
  key: 'microsoft_graph',
  name: 'Microsoft Outlook (Graph)',
  auth: bearerAuth(['oauth2'], {
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    scopes: ['offline_access', 'Mail.Send', 'Calendars.ReadWrite'],
  }),
  baseUrl: 'https://graph.microsoft.com/v1.0',
  actions: [sendEmail, createEvent, findFreeSlots, checkAvailability, listEvents, rescheduleEvent, cancelEvent],
});
