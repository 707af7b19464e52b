import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { addComment } from './add-comment';
import { createTask } from './create-task';

/** Asana API 1.0: a personal access token or OAuth access token as a Bearer token. */
export default defineIntegration({
  key: 'asana',
  name: 'Asana',
  auth: bearerAuth(['api_key', 'oauth2'], { tokenUrl: 'https://app.asana.com/-/oauth_token' }),
  baseUrl: 'https://app.asana.com/api/1.0',
  apiDescription: 'asana.json',
  actions: [createTask, addComment],
});
