import type { IntegrationCases } from '../../helpers/action-cases';

const EMBEDS = [{ title: 'Call', description: 'Ada called', color: 0x00ff00, fields: [{ name: 'Phone', value: '+1415', inline: true }] }];

/** Discord: the webhook URL is the credential; no Authorization header. */
export const discord: IntegrationCases = {
  integration: 'discord',
  connection: { kind: 'api_key', secrets: { webhook_url: 'https://discord.com/api/webhooks/112233445566778899/tok-EN_abc' } },
  spec: { file: 'discord.json' },
  cases: [
    {
      action: 'send_message',
      params: { content: 'New lead @everyone', username: 'Switchboard', embeds: EMBEDS, thread_id: '777' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v10/webhooks/112233445566778899/tok-EN_abc',
            query: { wait: 'true', thread_id: '777' },
            headers: { authorization: null, 'content-type': 'application/json' },
            body: { content: 'New lead @everyone', username: 'Switchboard', embeds: EMBEDS, allowed_mentions: { parse: [] } },
          },
          response: { status: 200, body: { id: '900', channel_id: '800', content: 'New lead' } },
        },
      ],
      data: { id: '900', channel_id: '800' },
    },
  ],
};
