import type { Connection } from '../../src/integrations/define';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { discord as cases } from './cases/discord';

const check = vendorSpec('discord.json');
const HOOK = '/api/v10/webhooks/112233445566778899/tok-EN_abc';

// The request of send_message is the case in ./cases/discord.ts; these are the variants, failures and refusals.
describe('discord send_message', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (params: unknown, conn?: Connection) => h.run('send_message', params, conn);

  it('lets mentions through when asked', async () => {
    h.fake.on('POST', HOOK, { status: 200, body: { id: '901', channel_id: '800' } });
    await run({ content: 'hi', allowMentions: true });
    expect(h.fake.requests[0]!.body).toEqual({ content: 'hi' });
    expect(h.fake.requests[0]!.query).toEqual({ wait: 'true' });
    expect(check(h.fake.requests[0]!)).toEqual([]);
  });

  it('a deleted webhook (404) fails without retrying', async () => {
    h.fake.on('POST', HOOK, { status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    await expect(run({ content: 'x' })).rejects.toMatchObject({
      type: 'vendor_not_found',
      retryable: false,
      attempts: 1,
      message: expect.stringContaining('Unknown Webhook'),
    });
  });

  it('a connection without a webhook URL asks to reconnect and sends nothing', async () => {
    await expect(run({ content: 'x' }, { ...h.connection, secrets: { webhook_url: 'https://example.com/nope' } })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringMatching(/reconnect/),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ content: 'x'.repeat(2001), embeds: [{ color: -1 }], thread_id: 'abc' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^content:/), expect.stringMatching(/^embeds\.0\.color:/), expect.stringMatching(/^thread_id:/)]),
    });
    await expect(run({})).rejects.toMatchObject({ problems: [expect.stringMatching(/^content: give content or embeds/)] });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: an over-long content is reported', () => {
    const body = { content: 'x'.repeat(2001) };
    expect(
      check({ method: 'POST', path: HOOK, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).length,
    ).toBeGreaterThan(0);
  });
});
