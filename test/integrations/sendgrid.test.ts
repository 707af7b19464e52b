import type { Connection } from '../../src/integrations/define';
import sendgrid from '../../src/integrations/sendgrid';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { caseParams } from '../helpers/action-cases';
import { vendorSpec } from '../helpers/vendor-spec';
import { sendgrid as cases } from './cases/sendgrid';

const check = vendorSpec('sendgrid.json');

// The requests of every action are the cases in ./cases/sendgrid.ts; these are the variants, failures and refusals.
describe('sendgrid', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (action: string, params: unknown, conn?: Connection) => h.run(action, params, conn);

  it('a 401 asks the user to reconnect, without retrying', async () => {
    h.fake.on('POST', '/v3/mail/send', {
      status: 401,
      body: { errors: [{ field: null, message: 'The provided authorization grant is invalid, expired, or revoked' }] },
    });
    await expect(run('send_email', { to: [{ email: 'ada@example.com' }], from: { email: 'a@example.org' }, subject: 's', text: 't' })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      retryable: false,
      attempts: 1,
      message: expect.stringMatching(/invalid, expired, or revoked.*reconnect/),
    });
  });

  it('upsert_contact refuses a custom field that is not a field id, sending nothing', async () => {
    await expect(run('upsert_contact', { ...caseParams(cases, 'upsert_contact'), custom_fields: { favourite_colour: 'red' } })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^custom_fields\.favourite_colour:/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('picks the EU host for EU connections', () => {
    const base = sendgrid.baseUrl as (c: Connection) => string;
    expect(base({ ...h.connection, settings: { region: 'eu' } })).toBe('https://api.eu.sendgrid.com');
    expect(base(h.connection)).toBe('https://api.sendgrid.com');
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('send_email', { to: [{ email: 'not-an-email' }], from: { email: 'a@example.org' } })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to\.0\.email:/), expect.stringMatching(/^text:/), expect.stringMatching(/^subject:/)]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a mail without personalizations is reported', () => {
    const body = { from: { email: 'a@example.org' }, subject: 's', content: [{ type: 'text/plain', value: 'x' }] };
    expect(
      check({ method: 'POST', path: '/v3/mail/send', query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).join(
        '\n',
      ),
    ).toMatch(/personalizations/);
  });
});
