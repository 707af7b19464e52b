import { defineIntegration } from '../define';
import { addComment } from './add-comment';
import { createCard } from './create-card';

/**
 * Trello REST API 1: the app's API key and the user's token. Sent in Trello's documented `Authorization: OAuth` header
 * form rather than as key/token query parameters, so they stay out of URLs.
 */
export default defineIntegration({
  key: 'trello',
  name: 'Trello',
  auth: {
    kinds: ['api_key'],
    apply: (conn) => ({
      headers: { Authorization: `OAuth oauth_consumer_key="${conn.secrets.api_key ?? ''}", oauth_token="${conn.secrets.token ?? ''}"` },
    }),
  },
  baseUrl: 'https://api.trello.com/1',
  actions: [createCard, addComment],
});
