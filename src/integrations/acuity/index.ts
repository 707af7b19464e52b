import { basicHeader } from '../basic';
import { defineIntegration } from '../define';
import { cancelAppointment } from './cancel-appointment';
import { createAppointment } from './create-appointment';
import { getAvailableTimes } from './get-available-times';
import { rescheduleAppointment } from './reschedule-appointment';

/** Acuity Scheduling API v1: HTTP Basic with the numeric user id and API key, or an OAuth2 Bearer token. */
export default defineIntegration({
  key: 'acuity',
  name: 'Acuity Scheduling',
  auth: {
    kinds: ['basic', 'oauth2'],
    apply: (conn) => {
      if (conn.secrets.access_token) return { headers: { Authorization: `Bearer ${conn.secrets.access_token}` } };
      return { headers: { Authorization: basicHeader(conn, ['username', 'user_id'], ['password', 'api_key']) } };
    },
    oauth2: { tokenUrl: 'https://acuityscheduling.com/oauth2/token' },
  },
  baseUrl: 'https://acuityscheduling.com/api/v1',
  actions: [getAvailableTimes, createAppointment, rescheduleAppointment, cancelAppointment],
});
