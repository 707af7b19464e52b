import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { microsoft_teams as cases } from './cases/microsoft-teams';

// Microsoft's Graph OpenAPI is too large to keep in ../shared/vendor-apis/ (see its INDEX.md): exact requests only,
// written from the channel-post-messages and chat-post-messages reference pages.
const TEAM = 'fbe2bf47-16c8-47cf-b4a5-4b9b187c508b';
const CHANNEL = '19:4a95f7d8db4c4e7fae857bcebe0623e6@thread.tacv2';
const CHANNEL_PATH = `/v1.0/teams/${TEAM}/channels/${encodeURIComponent(CHANNEL)}/messages`;

// The requests of every action are the cases in ./cases/microsoft-teams.ts; these are the variants, failures and refusals.
describe('microsoft_teams', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (action: string, params: unknown, conn?: Connection) => h.run(action, params, conn);

  it('a missing channel (404) fails without retrying', async () => {
    h.fake.on('POST', CHANNEL_PATH, { status: 404, body: { error: { code: 'NotFound', message: 'Channel not found' } } });
    await expect(run('post_message', { teamId: TEAM, channelId: CHANNEL, content: 'x' })).rejects.toMatchObject({
      type: 'vendor_not_found',
      attempts: 1,
      message: expect.stringContaining('Channel not found'),
    });
  });

  it('post_webhook refuses a private webhook address unless allowed, and a connection without one', async () => {
    const hook: Connection = { ...h.connection, secrets: { webhook_url: `${h.fake.url}/hook` } };
    await expect(
      runIntegrationAction({ action: 'post_webhook', integration: 'microsoft_teams', params: { text: 'x' }, connection: hook, idempotencyKey: 'req-1' }),
    ).rejects.toMatchObject({ type: 'ssrf_blocked' });
    await expect(run('post_webhook', { text: 'x' }, { ...h.connection, secrets: { access_token: 'eyJ0.teams' } })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringContaining('webhook_url'),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('post_message', { teamId: '../x', channelId: '', content: '', contentType: 'markdown' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([
        expect.stringMatching(/^teamId:/),
        expect.stringMatching(/^channelId:/),
        expect.stringMatching(/^content:/),
        expect.stringMatching(/^contentType:/),
      ]),
    });
    await expect(run('send_chat_message', { chatId: 'x', content: 'y', subject: 'no subjects in chats' })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });
});
