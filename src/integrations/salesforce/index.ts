import { bearerAuth } from '../auth';
import { originSetting } from '../connection-settings';
import { defineIntegration } from '../define';
import createLead from './create-lead';
import logCall from './log-call';
import updateRecord from './update-record';
import upsertLead from './upsert-lead';
import upsertRecord from './upsert-record';

/** Salesforce REST API on the org's own host (`instance_url` from the OAuth token answer). */
export default defineIntegration({
  key: 'salesforce',
  name: 'Salesforce',
  auth: bearerAuth(['oauth2'], { tokenUrl: 'https://login.salesforce.com/services/oauth2/token', scopes: ['api', 'refresh_token'] }),
  baseUrl: (conn) => originSetting(conn, ['instance_url'], "the org's instance URL"),
  actions: [createLead, upsertLead, upsertRecord, updateRecord, logCall],
});
