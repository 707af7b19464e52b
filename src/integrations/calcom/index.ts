import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { cancelBooking } from './cancel-booking';
import { createBooking } from './create-booking';
import { getBooking } from './get-booking';
import { getSlots } from './get-slots';
import { rescheduleBooking } from './reschedule-booking';

/** Cal.com API v2: an API key (`cal_…`) as a Bearer token; each endpoint pins its own `cal-api-version`. */
export default defineIntegration({
  key: 'calcom',
  name: 'Cal.com',
  auth: bearerAuth(['api_key']),
  baseUrl: 'https://api.cal.com',
  apiDescription: 'calcom.json',
  actions: [getSlots, createBooking, getBooking, rescheduleBooking, cancelBooking],
});
