import { bearerToken } from '../auth';
import { defineIntegration } from '../define';
import { addComment } from './add-comment';
import { createTask } from './create-task';

/** ClickUp API v2: a personal token (`pk_…`) as the bare Authorization header, or an OAuth access token as Bearer. */
export default defineIntegration({
  key: 'clickup',
  name: 'ClickUp',
  auth: {
    kinds: ['api_key', 'oauth2'],
    apply: (conn) => ({ headers: { Authorization: conn.secrets.access_token ? `Bearer ${conn.secrets.access_token}` : bearerToken(conn) } }),
    oauth2: { tokenUrl: 'https://api.clickup.com/api/v2/oauth/token' },
  },
  baseUrl: 'https://api.clickup.com/api/v2',
  actions: [createTask, addComment],
});
