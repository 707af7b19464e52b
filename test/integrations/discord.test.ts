import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('discord.json');
const HOOK = '/api/v10/webhooks/112233445566778899/tok-EN_abc';
const connection: Connection = { id: 'c1', integration: 'discord', kind: 'api_key', secrets: { webhook_url: 'https://discord.com/api/webhooks/112233445566778899/tok-EN_abc' }, settings: {} };

describe('discord send_message', () => {
  let fake: VendorFake;
  const run = (params: unknown, conn = connection) =>
    runIntegrationAction({ integration: 'discord', action: 'send_message', params, connection: conn, idempotencyKey: 'req-1', baseUrls: { discord: `${fake.url}/api/v10` }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('executes the webhook with wait=true and mentions disabled, as Discord describes it', async () => {
    fake.on('POST', HOOK, { status: 200, body: { id: '900', channel_id: '800', content: 'New lead' } });
    const out = await run({ content: 'New lead @everyone', username: 'Switchboard', embeds: [{ title: 'Call', description: 'Ada called', color: 0x00ff00, fields: [{ name: 'Phone', value: '+1415', inline: true }] }], thread_id: '777' });
    expect(out).toEqual({ data: { id: '900', channel_id: '800' }, attempts: 1, action: 'send_message' });
    const [req] = fake.requests;
    expect(req!.query).toEqual({ wait: 'true', thread_id: '777' });
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({ content: 'New lead @everyone', username: 'Switchboard', embeds: [{ title: 'Call', description: 'Ada called', color: 0x00ff00, fields: [{ name: 'Phone', value: '+1415', inline: true }] }], allowed_mentions: { parse: [] } });
    expect(check(req!)).toEqual([]);
  });

  it('lets mentions through when asked', async () => {
    fake.on('POST', HOOK, { status: 200, body: { id: '901', channel_id: '800' } });
    await run({ content: 'hi', allowMentions: true });
    expect(fake.requests[0]!.body).toEqual({ content: 'hi' });
    expect(fake.requests[0]!.query).toEqual({ wait: 'true' });
    expect(check(fake.requests[0]!)).toEqual([]);
  });

  it('a deleted webhook (404) fails without retrying', async () => {
    fake.on('POST', HOOK, { status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    await expect(run({ content: 'x' })).rejects.toMatchObject({ type: 'vendor_not_found', retryable: false, attempts: 1, message: expect.stringContaining('Unknown Webhook') });
  });

  it('a connection without a webhook URL asks to reconnect and sends nothing', async () => {
    await expect(run({ content: 'x' }, { ...connection, secrets: { webhook_url: 'https://example.com/nope' } })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringMatching(/reconnect/) });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ content: 'x'.repeat(2001), embeds: [{ color: -1 }], thread_id: 'abc' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^content:/), expect.stringMatching(/^embeds\.0\.color:/), expect.stringMatching(/^thread_id:/)]),
    });
    await expect(run({})).rejects.toMatchObject({ problems: [expect.stringMatching(/^content: give content or embeds/)] });
    expect(fake.requests).toHaveLength(0);
  });

  it('the description check can fail: an over-long content is reported', () => {
    const body = { content: 'x'.repeat(2001) };
    expect(check({ method: 'POST', path: HOOK, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).length).toBeGreaterThan(0);
  });
});
