import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';
import { whatsappCheck } from '../helpers/whatsapp-spec';

const check = whatsappCheck();
const connection: Connection = { id: 'c1', integration: 'whatsapp', kind: 'api_key', secrets: { access_token: 'EAAGtest' }, settings: { phone_number_id: '106540352242922' } };
const MESSAGES = '/v23.0/106540352242922/messages';
const SENT = { messaging_product: 'whatsapp', contacts: [{ input: '+14155550100', wa_id: '14155550100' }], messages: [{ id: 'wamid.HBgL' }] };

describe('whatsapp', () => {
  let fake: VendorFake;
  const run = (action: string, params: unknown, conn = connection) =>
    runIntegrationAction({ action, integration: 'whatsapp', params, connection: conn, idempotencyKey: 'req-1', baseUrls: { whatsapp: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('send_template posts a template message from the connection\'s number, as Meta describes it', async () => {
    fake.on('POST', MESSAGES, { status: 200, body: { ...SENT, messages: [{ id: 'wamid.HBgL', message_status: 'accepted' }] } });
    const out = await run('send_template', { to: '+14155550100', name: 'appointment_reminder', language: 'en_US', bodyParameters: ['Ada', 'Tuesday 10:00'] });
    expect(out).toEqual({ data: { messageId: 'wamid.HBgL', waId: '14155550100', status: 'accepted' }, attempts: 1, action: 'send_template' });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer EAAGtest');
    expect(req!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '14155550100',
      type: 'template',
      template: { name: 'appointment_reminder', language: { policy: 'deterministic', code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }, { type: 'text', text: 'Tuesday 10:00' }] }] },
    });
    expect(check(req!)).toEqual([]);
  });

  it('send_text posts a text message', async () => {
    fake.on('POST', MESSAGES, { status: 200, body: SENT });
    const out = await run('send_text', { to: '14155550100', body: 'See you Tuesday https://example.com', previewUrl: true });
    expect(out.data).toEqual({ messageId: 'wamid.HBgL', waId: '14155550100', status: null });
    const [req] = fake.requests;
    expect(req!.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '14155550100', type: 'text', text: { body: 'See you Tuesday https://example.com', preview_url: true } });
    expect(check(req!)).toEqual([]);
  });

  it('uses the connection\'s API version when it pins one', async () => {
    fake.on('POST', '/v24.0/106540352242922/messages', { status: 200, body: SENT });
    await run('send_text', { to: '+14155550100', body: 'x' }, { ...connection, settings: { ...connection.settings, api_version: 'v24.0' } });
    expect(fake.requests[0]!.path).toBe('/v24.0/106540352242922/messages');
  });

  it('surfaces Meta\'s error (outside the 24-hour window)', async () => {
    fake.on('POST', MESSAGES, { status: 400, body: { error: { message: '(#131047) Re-engagement message', type: 'OAuthException', code: 131047 } } });
    await expect(run('send_text', { to: '+14155550100', body: 'x' })).rejects.toMatchObject({ type: 'vendor_rejected', attempts: 1, message: expect.stringContaining('Re-engagement message') });
  });

  it('refuses bad params and a connection without phone_number_id, sending nothing', async () => {
    await expect(run('send_template', { to: 'abc', name: 'Bad Name' })).rejects.toMatchObject({ type: 'invalid_params', problems: expect.arrayContaining([expect.stringMatching(/^to:/), expect.stringMatching(/^name:/)]) });
    await expect(run('send_text', { to: '+14155550100', body: 'x' }, { ...connection, settings: {} })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringContaining('phone_number_id') });
    expect(fake.requests).toHaveLength(0);
  });

  it('the unpatched description refuses every message (why the check relaxes it), and the check can fail', () => {
    const text = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '1415', type: 'text', text: { body: 'x' } };
    expect(vendorSpec('whatsapp.json')({ method: 'POST', path: MESSAGES, query: {}, headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, rawBody: JSON.stringify(text), body: text }).join('\n')).toMatch(/additional properties/);
    const unknown = { ...text, text: { body: 'x', colour: 'red' } };
    expect(check({ method: 'POST', path: MESSAGES, query: {}, headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, rawBody: JSON.stringify(unknown), body: unknown }).length).toBeGreaterThan(0);
  });

  it('the description check can fail: a template without language is reported', () => {
    const body = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '1415', type: 'template', template: { name: 'x' } };
    expect(check({ method: 'POST', path: MESSAGES, query: {}, headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).length).toBeGreaterThan(0);
  });
});
