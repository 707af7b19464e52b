import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import sendgrid from '../../src/integrations/sendgrid';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('sendgrid.json');
const connection: Connection = { id: 'c1', integration: 'sendgrid', kind: 'api_key', secrets: { api_key: 'SG.test' }, settings: {} };

describe('sendgrid', () => {
  let fake: VendorFake;
  const run = (action: string, params: unknown) =>
    runIntegrationAction({ action, integration: 'sendgrid', params, connection, idempotencyKey: 'req-1', baseUrls: { sendgrid: fake.url }, ssrfAllowlist: ['127.0.0.1/8'], http: { sleep: async () => {} } });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('sends one personalization as mail/send describes it and returns the X-Message-Id', async () => {
    fake.on('POST', '/v3/mail/send', { status: 202, headers: { 'x-message-id': 'msg-abc' } });
    const out = await run('send_email', { to: [{ email: 'ada@example.com', name: 'Ada' }], cc: [{ email: 'ops@example.com' }], from: { email: 'agent@example.org', name: 'Agent' }, replyTo: { email: 'help@example.org' }, subject: 'Your call summary', text: 'Thanks for calling', html: '<p>Thanks for calling</p>', categories: ['call'] });
    expect(out).toEqual({ data: { accepted: true, messageId: 'msg-abc' }, attempts: 1, action: 'send_email' });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer SG.test');
    expect(req!.body).toEqual({
      personalizations: [{ to: [{ email: 'ada@example.com', name: 'Ada' }], cc: [{ email: 'ops@example.com' }] }],
      from: { email: 'agent@example.org', name: 'Agent' },
      reply_to: { email: 'help@example.org' },
      subject: 'Your call summary',
      content: [{ type: 'text/plain', value: 'Thanks for calling' }, { type: 'text/html', value: '<p>Thanks for calling</p>' }],
      categories: ['call'],
    });
    expect(check(req!)).toEqual([]);
  });

  it('sends a dynamic template with its data', async () => {
    fake.on('POST', '/v3/mail/send', { status: 202 });
    await run('send_email', { to: [{ email: 'ada@example.com' }], from: { email: 'agent@example.org' }, templateId: 'd-123', dynamicTemplateData: { first_name: 'Ada' } });
    const [req] = fake.requests;
    expect(req!.body).toEqual({ personalizations: [{ to: [{ email: 'ada@example.com' }], dynamic_template_data: { first_name: 'Ada' } }], from: { email: 'agent@example.org' }, template_id: 'd-123' });
    expect(check(req!)).toEqual([]);
  });

  it('a 401 asks the user to reconnect, without retrying', async () => {
    fake.on('POST', '/v3/mail/send', { status: 401, body: { errors: [{ field: null, message: 'The provided authorization grant is invalid, expired, or revoked' }] } });
    await expect(run('send_email', { to: [{ email: 'ada@example.com' }], from: { email: 'a@example.org' }, subject: 's', text: 't' })).rejects.toMatchObject({ type: 'vendor_auth_failed', retryable: false, attempts: 1, message: expect.stringMatching(/invalid, expired, or revoked.*reconnect/) });
  });

  it('upsert_contact puts the contact with custom fields by id and list ids (no vendor description for it: exact request)', async () => {
    fake.on('PUT', '/v3/marketing/contacts', { status: 202, body: { job_id: '2387e363-4104-4225-8960-4a5758492351' } });
    const list = 'ca7a3796-e8d8-4cf2-9b5f-7d9b8e1f0a11';
    const out = await run('upsert_contact', { email: 'ada@example.com', first_name: 'Ada', phone_number: '+14155550100', listIds: [list], custom_fields: { e1_T: 'inbound call', e2_N: 3 } });
    expect(out).toEqual({ data: { jobId: '2387e363-4104-4225-8960-4a5758492351' }, attempts: 1, action: 'upsert_contact' });
    const [req] = fake.requests;
    expect(req!.method).toBe('PUT');
    expect(req!.headers.authorization).toBe('Bearer SG.test');
    expect(req!.body).toEqual({ list_ids: [list], contacts: [{ email: 'ada@example.com', first_name: 'Ada', phone_number: '+14155550100', custom_fields: { e1_T: 'inbound call', e2_N: 3 } }] });
    await expect(run('upsert_contact', { email: 'ada@example.com', custom_fields: { favourite_colour: 'red' } })).rejects.toMatchObject({ type: 'invalid_params', problems: [expect.stringMatching(/^custom_fields\.favourite_colour:/)] });
    expect(fake.requests).toHaveLength(1);
  });

  it('picks the EU host for EU connections', () => {
    const base = sendgrid.baseUrl as (c: Connection) => string;
    expect(base({ ...connection, settings: { region: 'eu' } })).toBe('https://api.eu.sendgrid.com');
    expect(base(connection)).toBe('https://api.sendgrid.com');
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('send_email', { to: [{ email: 'not-an-email' }], from: { email: 'a@example.org' } })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to\.0\.email:/), expect.stringMatching(/^text:/), expect.stringMatching(/^subject:/)]),
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a mail without personalizations is reported', () => {
    const body = { from: { email: 'a@example.org' }, subject: 's', content: [{ type: 'text/plain', value: 'x' }] };
    expect(check({ method: 'POST', path: '/v3/mail/send', query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).join('\n')).toMatch(/personalizations/);
  });
});
