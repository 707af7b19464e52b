import { defineIntegration, VendorError } from '../define';
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
    apply: (conn) => {
      const { api_key: key, token } = conn.secrets;
      if (!key || !token) throw new VendorError('vendor_auth_failed', 'the trello connection needs its api_key and token; reconnect the integration', false);
      return { headers: { Authorization: `OAuth oauth_consumer_key="${key}", oauth_token="${token}"` } };
    },
  },
  baseUrl: 'https://api.trello.com/1',
  actions: [createCard, addComment],
});
