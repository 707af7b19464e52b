import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

// INDEX.md: Slack's description is stale and flawed (tuple items, type null): lenient mode.
const check = vendorSpec('slack.json', { lenient: true });
const connection: Connection = { id: 'c1', integration: 'slack', kind: 'oauth2', secrets: { access_token: 'xoxb-test' }, settings: {} };

describe('slack post_message', () => {
  let fake: VendorFake;
  const run = (params: unknown) =>
    runIntegrationAction({ integration: 'slack', action: 'post_message', params, connection, idempotencyKey: 'req-1', baseUrls: { slack: `${fake.url}/api` }, ssrfAllowlist: ['127.0.0.1/8'], http: { sleep: async () => {} } });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('posts the message as Slack describes chat.postMessage', async () => {
    fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: true, channel: 'C123', ts: '1700000000.000100', message: {} } });
    const out = await run({ channel: 'C123', text: 'Call finished', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*done*' } }] });
    expect(out).toEqual({ data: { channel: 'C123', ts: '1700000000.000100' }, attempts: 1, action: 'post_message' });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer xoxb-test');
    expect(check(req!)).toEqual([]);
    expect(req!.body).toMatchObject({ channel: 'C123', text: 'Call finished' });
  });

  it('treats ok:false as a failure: auth errors ask to reconnect, others name Slack\'s code', async () => {
    fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: false, error: 'channel_not_found' } });
    await expect(run({ channel: 'C404', text: 'x' })).rejects.toMatchObject({ type: 'vendor_error_in_body', message: 'Slack said channel_not_found', retryable: false, attempts: 1 });
    fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: false, error: 'invalid_auth' } });
    await expect(run({ channel: 'C1', text: 'x' })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringMatching(/reconnect/) });
  });

  it('retries Slack ratelimited', async () => {
    fake.on('POST', '/api/chat.postMessage', { status: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } }, { status: 200, body: { ok: true, channel: 'C1', ts: '1.2' } });
    await expect(run({ channel: 'C1', text: 'x' })).resolves.toMatchObject({ attempts: 2 });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ channel: '', text: 5, extra: true })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^channel:/), expect.stringMatching(/^text:/), expect.stringMatching(/extra/)]),
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a request without channel is reported', () => {
    const problems = check({ method: 'POST', path: '/api/chat.postMessage', query: {}, headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, rawBody: '{"text":"x"}', body: { text: 'x' } });
    expect(problems.join('\n')).toMatch(/channel/);
  });
});
