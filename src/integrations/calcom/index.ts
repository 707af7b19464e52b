import { defineIntegration } from '../define';
import { createBooking } from './create-booking';
import { getSlots } from './get-slots';

/** Cal.com API v2: an API key (`cal_…`) or OAuth access token as a Bearer token; each endpoint pins its own `cal-api-version`. */
export default defineIntegration({
  key: 'calcom',
  name: 'Cal.com',
  auth: {
    kinds: ['api_key', 'oauth2'],
    apply: (conn) => ({ headers: { Authorization: `Bearer ${conn.secrets.access_token ?? conn.secrets.api_key ?? ''}` } }),
    oauth2: { tokenUrl: 'https://app.cal.com/api/auth/oauth/refreshToken' },
  },
  baseUrl: 'https://api.cal.com',
  actions: [getSlots, createBooking],
});
