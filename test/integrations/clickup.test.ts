import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { clickup as cases } from './cases/clickup';

// The requests of every action are the cases in ./cases/clickup.ts; these are the OAuth variant and the retries.
const clickup = actionHarness(cases);

describe('clickup', () => {
  test('an OAuth connection sends a Bearer token', async () => {
    clickup.fake.on('POST', '/api/v2/task/86a1b2c3/comment', { body: { id: 458, hist_id: '26508', date: 1568036964079 } });
    const result = await clickup.run('add_comment', caseParams(cases, 'add_comment'), {
      connection: { kind: 'oauth2', secrets: { access_token: 'cu-oauth' } },
    });
    const req = clickup.sent();
    expect([req.method, req.path]).toEqual(['POST', '/api/v2/task/86a1b2c3/comment']);
    expect(req.headers.authorization).toBe('Bearer cu-oauth');
    expect(req.body).toEqual({ comment_text: 'Called back.', notify_all: false });
    expect(result.data).toEqual({ id: '458' });
  });

  test('5xx is retried with backoff, then fails as unavailable after the last attempt', async () => {
    clickup.fake.on('POST', '/api/v2/task/86a1b2c3/comment', { status: 503, body: { err: 'Service unavailable', ECODE: 'OAUTH_000' } });
    const err = await clickup.fail('add_comment', caseParams(cases, 'add_comment'));
    expect(err.type).toBe('vendor_unavailable');
    expect(clickup.fake.requests).toHaveLength(3);
    expect(clickup.sleeps).toHaveLength(2);
    expect(clickup.sleeps[1]!).toBeGreaterThan(clickup.sleeps[0]!);
  });

  test('a 503 then a success completes on the retry (a 503 proves the comment was not made)', async () => {
    clickup.fake.on('POST', '/api/v2/task/86a1b2c3/comment', { status: 503, body: 'Service Unavailable' }, { body: { id: 459 } });
    const result = await clickup.run('add_comment', caseParams(cases, 'add_comment'));
    expect(result.attempts).toBe(2);
    expect(result.data).toEqual({ id: '459' });
  });
});
