import { bearerToken } from '../auth';
import { basicAuthorization, requiredSecret } from '../connection-settings';
import { defineIntegration } from '../define';
import addNote from './add-note';
import createLead from './create-lead';
import logCall from './log-call';

/** Close CRM: an API key as the Basic username with an empty password, or OAuth. */
export default defineIntegration({
  key: 'close',
  name: 'Close',
  auth: {
    kinds: ['api_key', 'oauth2'],
    oauth2: { tokenUrl: 'https://api.close.com/oauth2/token/' },
    apply: (conn) => ({
      headers: { authorization: conn.kind === 'oauth2' ? `Bearer ${bearerToken(conn)}` : basicAuthorization(requiredSecret(conn, 'api_key'), '') },
    }),
  },
  baseUrl: 'https://api.close.com',
  actions: [createLead, addNote, logCall],
});
