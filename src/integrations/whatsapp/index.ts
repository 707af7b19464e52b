import { bearerAuth } from '../auth';
import { defineIntegration } from '../define';
import sendTemplate from './send-template';
import sendText from './send-text';

/** WhatsApp Business Cloud API (Meta Graph), by a system-user or OAuth access token; the sender is `settings.phone_number_id`. */
export default defineIntegration({
  key: 'whatsapp',
  name: 'WhatsApp Cloud API',
  auth: bearerAuth(['api_key', 'oauth2']),
  baseUrl: 'https://graph.facebook.com',
  apiDescription: 'whatsapp.json',
  actions: [sendText, sendTemplate],
});
