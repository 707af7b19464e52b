import type { Connection } from '../../src/integrations/define';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { slack as cases } from './cases/slack';

// INDEX.md: Slack's description is stale and flawed (tuple items, type null): lenient mode.
const check = vendorSpec('slack.json', { lenient: true });

// The requests of every action are the cases in ./cases/slack.ts; these are the variants, failures and refusals.
describe('slack post_message', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (params: unknown, conn?: Connection) => h.run('post_message', params, conn);

  it("treats ok:false as a failure: auth errors ask to reconnect, others name Slack's code", async () => {
    h.fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: false, error: 'channel_not_found' } });
    await expect(run({ channel: 'C404', text: 'x' })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      message: 'Slack said channel_not_found',
      retryable: false,
      attempts: 1,
    });
    h.fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: false, error: 'invalid_auth' } });
    await expect(run({ channel: 'C1', text: 'x' })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringMatching(/reconnect/) });
  });

  it('retries Slack ratelimited', async () => {
    h.fake.on(
      'POST',
      '/api/chat.postMessage',
      { status: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } },
      { status: 200, body: { ok: true, channel: 'C1', ts: '1.2' } },
    );
    await expect(run({ channel: 'C1', text: 'x' })).resolves.toMatchObject({ attempts: 2 });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ channel: '', text: 5, extra: true })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^channel:/), expect.stringMatching(/^text:/), expect.stringMatching(/extra/)]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a request without channel is reported', () => {
    const problems = check({
      method: 'POST',
      path: '/api/chat.postMessage',
      query: {},
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      rawBody: '{"text":"x"}',
      body: { text: 'x' },
    });
    expect(problems.join('\n')).toMatch(/channel/);
  });
});

describe('slack depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it("find_user_by_email: no member is Slack's users_not_found, not retried", async () => {
    h.fake.on('GET', '/api/users.lookupByEmail', { status: 200, body: { ok: false, error: 'users_not_found' } });
    await expect(h.run('find_user_by_email', { email: 'nobody@example.com' })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      message: 'Slack said users_not_found',
      retryable: false,
      attempts: 1,
    });
  });

  it('list_channels: the last page has no cursor', async () => {
    h.fake.on('GET', '/api/conversations.list', { status: 200, body: { ok: true, channels: [], response_metadata: { next_cursor: '' } } });
    await expect(h.run('list_channels', { cursor: 'abc', types: ['private_channel'] })).resolves.toMatchObject({ data: { channels: [], next_cursor: null } });
    expect(h.fake.requests[0]!.query).toEqual({ types: 'private_channel', exclude_archived: 'true', limit: '200', cursor: 'abc' });
  });

  it('post_thread_reply needs a real parent ts and sends nothing without one', async () => {
    await expect(h.run('post_thread_reply', { channel: 'C1', thread_ts: 'yesterday', text: 'x' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^thread_ts:/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});
