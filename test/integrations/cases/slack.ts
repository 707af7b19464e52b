import type { IntegrationCases } from '../../helpers/action-cases';

const NOT_DESCRIBED = 'slack.json keeps POST /chat.postMessage only';

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
    {
      action: 'post_thread_reply',
      params: { channel: 'C123', thread_ts: '1700000000.000100', text: 'Booked for Tuesday 10:00', reply_broadcast: true },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/chat.postMessage',
            headers: { authorization: 'Bearer xoxb-test', 'content-type': expect.stringMatching(/^application\/json/) },
            body: { channel: 'C123', thread_ts: '1700000000.000100', text: 'Booked for Tuesday 10:00', reply_broadcast: true },
          },
          response: { status: 200, body: { ok: true, channel: 'C123', ts: '1700000000.000200', message: {} } },
        },
      ],
      data: { channel: 'C123', ts: '1700000000.000200', thread_ts: '1700000000.000100' },
    },
    {
      action: 'find_user_by_email',
      params: { email: 'ada@example.com' },
      exchanges: [
        {
          request: { method: 'GET', path: '/api/users.lookupByEmail', query: { email: 'ada@example.com' }, headers: { authorization: 'Bearer xoxb-test' } },
          response: { status: 200, body: { ok: true, user: { id: 'U0ADA', name: 'ada', real_name: 'Ada Lovelace', tz: 'Europe/London', is_bot: false } } },
        },
      ],
      data: { id: 'U0ADA', name: 'ada', real_name: 'Ada Lovelace', tz: 'Europe/London', is_bot: false },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'list_channels',
      params: { limit: 2 },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/api/conversations.list',
            query: { types: 'public_channel', exclude_archived: 'true', limit: '2' },
            headers: { authorization: 'Bearer xoxb-test' },
          },
          response: {
            status: 200,
            body: {
              ok: true,
              channels: [
                { id: 'C123', name: 'sales', is_private: false, is_member: true },
                { id: 'C456', name: 'support' },
              ],
              response_metadata: { next_cursor: 'dGVhbTpDMDYx' },
            },
          },
        },
      ],
      data: {
        channels: [
          { id: 'C123', name: 'sales', is_private: false, is_member: true },
          { id: 'C456', name: 'support', is_private: false, is_member: false },
        ],
        next_cursor: 'dGVhbTpDMDYx',
      },
      notDescribed: NOT_DESCRIBED,
    },
  ],
};
