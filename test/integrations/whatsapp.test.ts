import type { Connection } from '../../src/integrations/define';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { whatsappCheck } from '../helpers/whatsapp-spec';
import { whatsapp as cases } from './cases/whatsapp';

const check = whatsappCheck();
const MESSAGES = '/v23.0/106540352242922/messages';
const SENT = { messaging_product: 'whatsapp', contacts: [{ input: '+14155550100', wa_id: '14155550100' }], messages: [{ id: 'wamid.HBgL' }] };

// The requests of every action are the cases in ./cases/whatsapp.ts; these are the variants, failures and refusals.
describe('whatsapp', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (action: string, params: unknown, conn?: Connection) => h.run(action, params, conn);

  it("uses the connection's API version when it pins one", async () => {
    h.fake.on('POST', '/v24.0/106540352242922/messages', { status: 200, body: SENT });
    await run('send_text', { to: '+14155550100', body: 'x' }, { ...h.connection, settings: { ...h.connection.settings, api_version: 'v24.0' } });
    expect(h.fake.requests[0]!.path).toBe('/v24.0/106540352242922/messages');
  });

  it("surfaces Meta's error (outside the 24-hour window)", async () => {
    h.fake.on('POST', MESSAGES, { status: 400, body: { error: { message: '(#131047) Re-engagement message', type: 'OAuthException', code: 131047 } } });
    await expect(run('send_text', { to: '+14155550100', body: 'x' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      attempts: 1,
      message: expect.stringContaining('Re-engagement message'),
    });
  });

  it('refuses bad params and a connection without phone_number_id, sending nothing', async () => {
    await expect(run('send_template', { to: 'abc', name: 'Bad Name' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to:/), expect.stringMatching(/^name:/)]),
    });
    await expect(run('send_text', { to: '+14155550100', body: 'x' }, { ...h.connection, settings: {} })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringContaining('phone_number_id'),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the unpatched description refuses every message (why the check relaxes it), and the check can fail', () => {
    const text = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '1415', type: 'text', text: { body: 'x' } };
    expect(
      vendorSpec('whatsapp.json')({
        method: 'POST',
        path: MESSAGES,
        query: {},
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        rawBody: JSON.stringify(text),
        body: text,
      }).join('\n'),
    ).toMatch(/additional properties/);
    const unknown = { ...text, text: { body: 'x', colour: 'red' } };
    expect(
      check({
        method: 'POST',
        path: MESSAGES,
        query: {},
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        rawBody: JSON.stringify(unknown),
        body: unknown,
      }).length,
    ).toBeGreaterThan(0);
  });

  it('the description check can fail: a template without language is reported', () => {
    const body = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '1415', type: 'template', template: { name: 'x' } };
    expect(
      check({
        method: 'POST',
        path: MESSAGES,
        query: {},
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        rawBody: JSON.stringify(body),
        body,
      }).length,
    ).toBeGreaterThan(0);
  });
});
