import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import postMessage from './post-message';
import sendChatMessage from './send-chat-message';

/** Microsoft Teams through Microsoft Graph (v1.0), by delegated OAuth (Graph sends channel messages only as a user). */
export default defineIntegration({
  key: 'microsoft_teams',
  name: 'Microsoft Teams',
  auth: bearerAuth(['oauth2'], { tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token', scopes: ['offline_access', 'ChannelMessage.Send', 'ChatMessage.Send'] }),
  baseUrl: 'https://graph.microsoft.com/v1.0',
  actions: [postMessage, sendChatMessage],
});
