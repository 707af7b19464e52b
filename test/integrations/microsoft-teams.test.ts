import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

// Microsoft's Graph OpenAPI is too large to keep in ../shared/vendor-apis/ (see its INDEX.md): exact requests only,
// written from the channel-post-messages and chat-post-messages reference pages.
const connection: Connection = { id: 'c1', integration: 'microsoft_teams', kind: 'oauth2', secrets: { access_token: 'eyJ0.teams' }, settings: {} };
const TEAM = 'fbe2bf47-16c8-47cf-b4a5-4b9b187c508b';
const CHANNEL = '19:4a95f7d8db4c4e7fae857bcebe0623e6@thread.tacv2';
const CHANNEL_PATH = `/v1.0/teams/${TEAM}/channels/${encodeURIComponent(CHANNEL)}/messages`;

describe('microsoft_teams', () => {
  let fake: VendorFake;
  const run = (action: string, params: unknown) =>
    runIntegrationAction({ action, integration: 'microsoft_teams', params, connection, idempotencyKey: 'req-1', baseUrls: { microsoft_teams: `${fake.url}/v1.0` }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('post_message posts a chatMessage to the channel', async () => {
    fake.on('POST', CHANNEL_PATH, { status: 201, body: { id: '1616990032035', webUrl: 'https://teams.microsoft.com/l/message/x' } });
    const out = await run('post_message', { teamId: TEAM, channelId: CHANNEL, content: '<b>New lead</b>', contentType: 'html', subject: 'Call' });
    expect(out).toEqual({ data: { id: '1616990032035', webUrl: 'https://teams.microsoft.com/l/message/x' }, attempts: 1, action: 'post_message' });
    const [req] = fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.headers.authorization).toBe('Bearer eyJ0.teams');
    expect(req!.body).toEqual({ subject: 'Call', body: { contentType: 'html', content: '<b>New lead</b>' } });
  });

  it('post_message with replyToId posts a reply', async () => {
    fake.on('POST', `${CHANNEL_PATH}/1616990032035/replies`, { status: 201, body: { id: '1616990171266', webUrl: null } });
    const out = await run('post_message', { teamId: TEAM, channelId: CHANNEL, replyToId: '1616990032035', content: 'Follow-up' });
    expect(out.data).toEqual({ id: '1616990171266', webUrl: null });
    expect(fake.requests[0]!.body).toEqual({ body: { contentType: 'text', content: 'Follow-up' } });
  });

  it('send_chat_message posts to the chat', async () => {
    fake.on('POST', `/v1.0/chats/${encodeURIComponent('19:2da4c29f6d7041eca70b638b43d45437@thread.v2')}/messages`, { status: 201, body: { id: '1612289765949', webUrl: null } });
    await run('send_chat_message', { chatId: '19:2da4c29f6d7041eca70b638b43d45437@thread.v2', content: 'Hello' });
    expect(fake.requests[0]!.body).toEqual({ body: { contentType: 'text', content: 'Hello' } });
  });

  it('a missing channel (404) fails without retrying', async () => {
    fake.on('POST', CHANNEL_PATH, { status: 404, body: { error: { code: 'NotFound', message: 'Channel not found' } } });
    await expect(run('post_message', { teamId: TEAM, channelId: CHANNEL, content: 'x' })).rejects.toMatchObject({ type: 'vendor_not_found', attempts: 1, message: expect.stringContaining('Channel not found') });
  });

  it('post_webhook posts an Adaptive Card to the connection\'s Workflows webhook, without the Graph token', async () => {
    fake.on('POST', '/workflows/abc/triggers/manual/paths/invoke', { status: 202 });
    const hook: Connection = { ...connection, secrets: { access_token: 'eyJ0.teams', webhook_url: `${fake.url}/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=s3cret` } };
    const out = await runIntegrationAction({ action: 'post_webhook', integration: 'microsoft_teams', params: { title: 'New lead', text: 'Ada called about **pricing**', facts: [{ title: 'Outcome', value: 'Booked' }] }, connection: hook, idempotencyKey: 'req-1', ssrfAllowlist: ['127.0.0.1/8'] });
    expect(out).toEqual({ data: { accepted: true }, attempts: 1, action: 'post_webhook' });
    const [req] = fake.requests;
    expect(req!.query).toEqual({ 'api-version': '1', sig: 's3cret' });
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({
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
    });
  });

  it('post_webhook refuses a private webhook address unless allowed, and a connection without one', async () => {
    const hook: Connection = { ...connection, secrets: { webhook_url: `${fake.url}/hook` } };
    await expect(runIntegrationAction({ action: 'post_webhook', integration: 'microsoft_teams', params: { text: 'x' }, connection: hook, idempotencyKey: 'req-1' })).rejects.toMatchObject({ type: 'ssrf_blocked' });
    await expect(run('post_webhook', { text: 'x' })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringContaining('webhook_url') });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('post_message', { teamId: '../x', channelId: '', content: '', contentType: 'markdown' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^teamId:/), expect.stringMatching(/^channelId:/), expect.stringMatching(/^content:/), expect.stringMatching(/^contentType:/)]),
    });
    await expect(run('send_chat_message', { chatId: 'x', content: 'y', subject: 'no subjects in chats' })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(fake.requests).toHaveLength(0);
  });
});
