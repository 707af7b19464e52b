import type { IntegrationCases } from '../../helpers/action-cases';

/** Slack: bot token as bearer; errors come back as 200 ok:false. */
export const slack: IntegrationCases = {
  integration: 'slack',
  connection: { kind: 'oauth2', secrets: { access_token: 'xoxb-test' } },
  // INDEX.md: Slack's description is stale and flawed (tuple items, type null): lenient mode.
  spec: { file: 'slack.json', lenient: true },
  cases: [
    {
      action: 'post_message',
      params: { channel: 'C123', text: 'Call finished', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*done*' } }] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/chat.postMessage',
            headers: { authorization: 'Bearer xoxb-test', 'content-type': expect.stringMatching(/^application\/json/) },
            body: { channel: 'C123', text: 'Call finished', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*done*' } }] },
          },
          response: { status: 200, body: { ok: true, channel: 'C123', ts: '1700000000.000100', message: {} } },
        },
      ],
      data: { channel: 'C123', ts: '1700000000.000100' },
    },
  ],
};
