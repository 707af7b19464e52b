import { defineIntegration } from '../define';
import sendMessage from './send-message';

/** Discord, by an incoming webhook: the connection's secret `webhook_url` is the credential (no auth header). */
export default defineIntegration({
  key: 'discord',
  name: 'Discord',
  auth: { kinds: ['api_key'], apply: () => ({}) },
  baseUrl: 'https://discord.com/api/v10',
  apiDescription: 'discord.json',
  actions: [sendMessage],
});
