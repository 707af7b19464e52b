import type { IntegrationCases } from '../../helpers/action-cases';

// Microsoft's Graph OpenAPI is too large to keep in ../shared/vendor-apis/ (see its INDEX.md): exact requests only,
// written from the channel-post-messages and chat-post-messages reference pages.
const TEAM = 'fbe2bf47-16c8-47cf-b4a5-4b9b187c508b';
const CHANNEL = '19:4a95f7d8db4c4e7fae857bcebe0623e6@thread.tacv2';
const CHAT = '19:2da4c29f6d7041eca70b638b43d45437@thread.v2';
const H = { authorization: 'Bearer eyJ0.teams' };

/** Microsoft Teams: Graph with an OAuth bearer; a Workflows webhook (another origin, no Graph token) for cards. */
export const microsoft_teams: IntegrationCases = {
  integration: 'microsoft_teams',
  connection: {
    kind: 'oauth2',
    secrets: { access_token: 'eyJ0.teams', webhook_url: '{hooks}/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=s3cret' },
  },
  cases: [
    {
      action: 'post_message',
      params: { teamId: TEAM, channelId: CHANNEL, content: '<b>New lead</b>', contentType: 'html', subject: 'Call' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: `/v1.0/teams/${TEAM}/channels/${encodeURIComponent(CHANNEL)}/messages`,
            headers: { ...H, 'content-type': 'application/json' },
            body: { subject: 'Call', body: { contentType: 'html', content: '<b>New lead</b>' } },
          },
          response: { status: 201, body: { id: '1616990032035', webUrl: 'https://teams.microsoft.com/l/message/x' } },
        },
      ],
      data: { id: '1616990032035', webUrl: 'https://teams.microsoft.com/l/message/x' },
    },
    {
      action: 'post_message',
      name: 'a reply in the thread',
      params: { teamId: TEAM, channelId: CHANNEL, replyToId: '1616990032035', content: 'Follow-up' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: `/v1.0/teams/${TEAM}/channels/${encodeURIComponent(CHANNEL)}/messages/1616990032035/replies`,
            headers: H,
            body: { body: { contentType: 'text', content: 'Follow-up' } },
          },
          response: { status: 201, body: { id: '1616990171266', webUrl: null } },
        },
      ],
      data: { id: '1616990171266', webUrl: null },
    },
    {
      action: 'send_chat_message',
      params: { chatId: CHAT, content: 'Hello' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: `/v1.0/chats/${encodeURIComponent(CHAT)}/messages`,
            headers: H,
            body: { body: { contentType: 'text', content: 'Hello' } },
          },
          response: { status: 201, body: { id: '1612289765949' } },
        },
      ],
      data: { id: '1612289765949', webUrl: null },
    },
    {
      action: 'post_webhook',
      params: { title: 'New lead', text: 'Ada called about **pricing**', facts: [{ title: 'Outcome', value: 'Booked' }] },
      exchanges: [
        {
          request: {
            at: 'hooks',
            method: 'POST',
            path: '/workflows/abc/triggers/manual/paths/invoke',
            query: { 'api-version': '1', sig: 's3cret' },
            headers: { authorization: null, 'content-type': 'application/json' },
            body: {
              type: 'message',
              attachments: [
                {
                  contentType: 'application/vnd.microsoft.card.adaptive',
                  contentUrl: null,
                  content: {
                    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
                    type: 'AdaptiveCard',
                    version: '1.4',
                    body: [
                      { type: 'TextBlock', text: 'New lead', weight: 'Bolder', size: 'Medium', wrap: true },
                      { type: 'TextBlock', text: 'Ada called about **pricing**', wrap: true },
                      { type: 'FactSet', facts: [{ title: 'Outcome', value: 'Booked' }] },
                    ],
                  },
                },
              ],
            },
          },
          response: { status: 202 },
        },
      ],
      data: { accepted: true },
    },
  ],
};
