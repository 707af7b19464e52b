import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { appendRow } from './append-row';
import { getRows } from './get-rows';

/** Google Sheets API v4: an OAuth2 access token (scope spreadsheets) as a Bearer token. */
export default defineIntegration({
  key: 'google_sheets',
  name: 'Google Sheets',
  auth: bearerAuth(['oauth2'], { tokenUrl: 'https://oauth2.googleapis.com/token', scopes: ['https://www.googleapis.com/auth/spreadsheets'] }),
  baseUrl: 'https://sheets.googleapis.com',
  apiDescription: 'google-sheets.json',
  actions: [appendRow, getRows],
});
