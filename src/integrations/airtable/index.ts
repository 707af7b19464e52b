import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { createRecord } from './create-record';
import { findRecords } from './find-records';
import { upsertRecord } from './upsert-record';

/** Airtable Web API: a personal access token or OAuth access token as a Bearer token. */
export default defineIntegration({
  key: 'airtable',
  name: 'Airtable',
  auth: bearerAuth(['api_key', 'oauth2'], { tokenUrl: 'https://airtable.com/oauth2/v1/token', scopes: ['data.records:read', 'data.records:write'] }),
  baseUrl: 'https://api.airtable.com',
  actions: [findRecords, createRecord, upsertRecord],
});
