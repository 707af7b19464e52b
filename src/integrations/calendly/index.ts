import { defineIntegration } from '../define';
import { createSchedulingLink } from './create-scheduling-link';
import { getAvailableTimes } from './get-available-times';

/** Calendly API v2: an OAuth access token or a personal access token as a Bearer token. */
export default defineIntegration({
  key: 'calendly',
  name: 'Calendly',
  auth: {
    kinds: ['oauth2', 'api_key'],
    apply: (conn) => ({ headers: { Authorization: `Bearer ${conn.secrets.access_token ?? conn.secrets.api_key ?? ''}` } }),
    oauth2: { tokenUrl: 'https://auth.calendly.com/oauth/token' },
  },
  baseUrl: 'https://api.calendly.com',
  actions: [getAvailableTimes, createSchedulingLink],
});
