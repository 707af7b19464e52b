import { defineIntegration } from '../define';
import postMessage from './post-message';
import postWebhook from './post-webhook';
import sendChatMessage from './send-chat-message';

/**
 * Microsoft Teams: through Microsoft Graph (v1.0) by delegated OAuth (Graph sends channel messages only as a user),
 * or through a Workflows webhook URL held by the connection (post_webhook, no token).
 */
export default defineIntegration({
  key: 'microsoft_teams',
  name: 'Microsoft Teams',
  auth: {
    kinds: ['oauth2', 'api_key'],
    oauth2: { tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token', scopes: ['offline_access', 'ChannelMessage.Send', 'ChatMessage.Send'] },
    // A webhook-only connection has no token; Graph then answers 401 and the run asks to reconnect with OAuth.
    apply: (conn) => (conn.secrets.access_token ? { headers: { authorization: `Bearer ${conn.secrets.access_token}` } } : {}),
  },
  baseUrl: 'https://graph.microsoft.com/v1.0',
  actions: [postMessage, sendChatMessage, postWebhook],
});
