import { defineIntegration } from '../define';
import { createRecord } from './create-record';
import { upsertRecord } from './upsert-record';

/** Airtable Web API: a personal access token or OAuth access token as a Bearer token. */
export default defineIntegration({
  key: 'airtable',
  name: 'Airtable',
  auth: {
    kinds: ['api_key', 'oauth2'],
    apply: (conn) => ({ headers: { Authorization: `Bearer ${conn.secrets.access_token ?? conn.secrets.api_key ?? ''}` } }),
    oauth2: { tokenUrl: 'https://airtable.com/oauth2/v1/token', scopes: ['data.records:write'] },
  },
  baseUrl: 'https://api.airtable.com',
  actions: [createRecord, upsertRecord],
});
