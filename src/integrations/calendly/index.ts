import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { cancelEvent } from './cancel-event';
import { createSchedulingLink } from './create-scheduling-link';
import { getAvailableTimes } from './get-available-times';
import { getRescheduleLink } from './get-reschedule-link';

/** Calendly API v2: an OAuth access token or a personal access token as a Bearer token. */
export default defineIntegration({
  key: 'calendly',
  name: 'Calendly',
  auth: bearerAuth(['oauth2', 'api_key'], { tokenUrl: 'https://auth.calendly.com/oauth/token' }),
  baseUrl: 'https://api.calendly.com',
  actions: [getAvailableTimes, createSchedulingLink, getRescheduleLink, cancelEvent],
});
