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

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('post_message', { teamId: '../x', channelId: '', content: '', contentType: 'markdown' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^teamId:/), expect.stringMatching(/^channelId:/), expect.stringMatching(/^content:/), expect.stringMatching(/^contentType:/)]),
    });
    await expect(run('send_chat_message', { chatId: 'x', content: 'y', subject: 'no subjects in chats' })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(fake.requests).toHaveLength(0);
  });
});
