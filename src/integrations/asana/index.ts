import { defineIntegration } from '../define';
import { addComment } from './add-comment';
import { createTask } from './create-task';

/** Asana API 1.0: a personal access token or OAuth access token as a Bearer token. */
export default defineIntegration({
  key: 'asana',
  name: 'Asana',
  auth: {
    kinds: ['api_key', 'oauth2'],
    apply: (conn) => ({ headers: { Authorization: `Bearer ${conn.secrets.access_token ?? conn.secrets.api_key ?? ''}` } }),
    oauth2: { tokenUrl: 'https://app.asana.com/-/oauth_token' },
  },
  baseUrl: 'https://app.asana.com/api/1.0',
  actions: [createTask, addComment],
});
