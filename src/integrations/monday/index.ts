import { bearerToken } from '../auth';
import { defineIntegration } from '../define';
import { addUpdate } from './add-update';
import { changeColumnValues } from './change-column-values';
import { createItem } from './create-item';
import { mondayErrorInBody } from './graphql';

/** monday.com platform API (GraphQL, one endpoint): a personal or OAuth token as the bare Authorization header. */
export default defineIntegration({
  key: 'monday',
  name: 'monday.com',
  auth: {
    kinds: ['api_key', 'oauth2'],
    apply: (conn) => ({ headers: { Authorization: bearerToken(conn) } }),
    oauth2: { tokenUrl: 'https://auth.monday.com/oauth2/token' },
  },
  baseUrl: 'https://api.monday.com',
  apiDescription: 'monday.json',
  headers: { 'API-Version': '2026-10' },
  errorInBody: mondayErrorInBody,
  actions: [createItem, changeColumnValues, addUpdate],
});
