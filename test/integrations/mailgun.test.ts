import type { Connection } from '../../src/integrations/define';
import mailgun from '../../src/integrations/mailgun';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { mailgun as cases } from './cases/mailgun';
import { vendorSpec } from '../helpers/vendor-spec';

const spec = vendorSpec('mailgun.json');
// The requests of every action are the cases in ./cases/mailgun.ts; these are the variants, failures and refusals.
describe('mailgun send_email', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const sleeps = h.waits;
  const run = (params: unknown) => h.run('send_email', params);

  it('retries a 5xx, then fails as unavailable', async () => {
    h.fake.on('POST', '/v3/mg.example.com/messages', { status: 503, body: 'upstream unavailable' });
    await expect(run({ from: 'a@mg.example.com', to: ['b@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({
      type: 'vendor_unavailable',
      retryable: true,
      attempts: 3,
      message: expect.stringContaining('503'),
    });
    expect(h.fake.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('picks the EU host for EU domains', () => {
    const base = mailgun.baseUrl as (c: Connection) => string;
    expect(base({ ...h.connection, settings: { region: 'EU' } })).toBe('https://api.eu.mailgun.net');
    expect(base(h.connection)).toBe('https://api.mailgun.net');
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ from: 'a@mg.example.com', to: [], subject: '' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to:/), expect.stringMatching(/^subject:/), expect.stringMatching(/^text:/)]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a message without to is reported', () => {
    expect(
      spec({
        method: 'POST',
        path: '/v3/mg.example.com/messages',
        query: {},
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        rawBody: 'x',
        body: { from: 'a@b.c', subject: 's' },
      }).join('\n'),
    ).toMatch(/to/);
  });
});
