import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { createBooking } from './create-booking';
import { getSlots } from './get-slots';

/** Cal.com API v2: an API key (`cal_…`) as a Bearer token; each endpoint pins its own `cal-api-version`. */
export default defineIntegration({
  key: 'calcom',
  name: 'Cal.com',
  auth: bearerAuth(['api_key']),
  baseUrl: 'https://api.cal.com',
  actions: [getSlots, createBooking],
});
