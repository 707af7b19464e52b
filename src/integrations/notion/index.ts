import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import { addComment } from './add-comment';
import { createPage } from './create-page';
import { updatePage } from './update-page';

/** Notion API: an internal integration secret or OAuth access token as a Bearer token, and the `Notion-Version` header. */
export default defineIntegration({
  key: 'notion',
  name: 'Notion',
  auth: bearerAuth(['api_key', 'oauth2'], { tokenUrl: 'https://api.notion.com/v1/oauth/token' }),
  baseUrl: 'https://api.notion.com',
  apiDescription: 'notion.json',
  headers: { 'Notion-Version': '2025-09-03' },
  actions: [createPage, updatePage, addComment],
});
