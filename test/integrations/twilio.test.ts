import type { Connection } from '../../src/integrations/define';
import { caseParams } from '../helpers/action-cases';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { twilio as cases } from './cases/twilio';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('twilio.json');
const SID = 'AC0123456789abcdef0123456789abcdef';
const MESSAGES = `/2010-04-01/Accounts/${SID}/Messages.json`;

// The requests of every action are the cases in ./cases/twilio.ts; these are the variants, failures and refusals.
describe('twilio', () => {
  const h = vendorFakeRunner(cases, 'req-7');
  const { run, waits: sleeps } = h;

  it('uses an API key pair when the connection has one, and a messaging service instead of from', async () => {
    h.fake.on('POST', MESSAGES, { status: 201, body: { sid: 'SM2', status: 'accepted', to: '+14155550100' } });
    const conn: Connection = { ...h.connection, kind: 'api_key', secrets: { api_key_sid: 'SKabc', api_key_secret: 'shh' } };
    await run('send_sms', { to: '+14155550100', messagingServiceSid: `MG${'a'.repeat(32)}`, body: 'hi' }, conn);
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('SKabc:shh').toString('base64')}`);
    expect(req!.body).toEqual({ To: '+14155550100', MessagingServiceSid: `MG${'a'.repeat(32)}`, Body: 'hi' });
    expect(check(req!)).toEqual([]);
  });

  it('send_whatsapp takes body or a content template, not both; nothing is sent', async () => {
    await expect(run('send_whatsapp', { ...caseParams(cases, 'send_whatsapp'), body: 'x' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^body: give exactly one/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('retries a 429, waiting what Retry-After says, with the same idempotency token', async () => {
    h.fake.on(
      'POST',
      MESSAGES,
      { status: 429, headers: { 'retry-after': '2' }, body: { code: 20429, message: 'Too Many Requests', status: 429 } },
      { status: 201, body: { sid: 'SM3', status: 'queued', to: '+14155550100' } },
    );
    await expect(run('send_sms', { to: '+14155550100', from: '+14155550199', body: 'x' })).resolves.toMatchObject({ attempts: 2, data: { sid: 'SM3' } });
    expect(sleeps).toEqual([2000]);
    expect(h.fake.requests.map((r) => r.headers['i-twilio-idempotency-token'])).toEqual(['req-7', 'req-7']);
  });

  it("surfaces Twilio's 400 message without retrying", async () => {
    h.fake.on('POST', MESSAGES, { status: 400, body: { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number.", status: 400 } });
    await expect(run('send_sms', { to: '+15005550001', from: '+14155550199', body: 'x' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      retryable: false,
      attempts: 1,
      message: expect.stringContaining('is not a valid phone number'),
    });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('send_sms', { to: '0612', body: '' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to:/), expect.stringMatching(/^body:/)]),
    });
    await expect(run('send_sms', { to: '+14155550100', body: 'x' })).rejects.toMatchObject({
      problems: [expect.stringMatching(/^from: give from or messagingServiceSid/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a message without To is reported', () => {
    const problems = check({
      method: 'POST',
      path: MESSAGES,
      query: {},
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'Body=x',
      body: { Body: 'x' },
    });
    expect(problems.join('\n')).toMatch(/To/);
  });
});

describe('twilio depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it('get_message_status without an account_sid asks to reconnect and sends nothing', async () => {
    await expect(h.run('get_message_status', { sid: `SM${'a'.repeat(32)}` }, { ...h.connection, settings: {} })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringContaining('account_sid'),
    });
    await expect(h.run('get_message_status', { sid: 'SM1' })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });
});
