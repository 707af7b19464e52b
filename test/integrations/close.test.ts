import type { Connection } from '../../src/integrations/define';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';

declareCoverage('close', ['create_lead', 'add_note', 'log_call']);

const connection: Connection = { id: 'c1', integration: 'close', kind: 'api_key', secrets: { api_key: 'api_4xTESTKEY' }, settings: {} };
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('close', () => {
  const h = vendorFakeRunner('close', connection, 'req-1');
  const { run } = h;

  it('create_lead sends the key as the Basic username, contacts with typed emails/phones and custom.cf_ keys', async () => {
    h.fake.on('POST', '/api/v1/lead/', { status: 200, body: { id: 'lead_IIDHIStmFcFQZZP0BRe99V1MCoXWz2PGCm6EDmR9v2O', contacts: [{ id: 'cont_abc' }] } });
    const out = await run('create_lead', { name: 'Engines Ltd', contacts: [{ name: 'Ada', emails: ['ada@example.com'], phones: ['+15551234567'] }], custom_fields: { cf_v6S011I6MqcbVvB2FA5Nk8dr5MkL8sWuCiG8cUleO9c: 'AI call' } });
    expect(out.data).toEqual({ id: 'lead_IIDHIStmFcFQZZP0BRe99V1MCoXWz2PGCm6EDmR9v2O', contact_ids: ['cont_abc'] });
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe(basic('api_4xTESTKEY', ''));
    expect(req!.body).toEqual({
      name: 'Engines Ltd',
      contacts: [{ name: 'Ada', emails: [{ email: 'ada@example.com', type: 'office' }], phones: [{ phone: '+15551234567', type: 'office' }] }],
      'custom.cf_v6S011I6MqcbVvB2FA5Nk8dr5MkL8sWuCiG8cUleO9c': 'AI call',
    });
  });

  it('add_note and log_call are activities on the lead', async () => {
    h.fake.on('POST', '/api/v1/activity/note/', { status: 200, body: { id: 'acti_note1' } });
    h.fake.on('POST', '/api/v1/activity/call/', { status: 200, body: { id: 'acti_call1' } });
    await expect(run('add_note', { lead_id: 'lead_abc', note: 'Wants pricing' })).resolves.toMatchObject({ data: { id: 'acti_note1' } });
    await expect(run('log_call', { lead_id: 'lead_abc', direction: 'inbound', duration: 95, phone: '+15551234567', note: 'Booked', disposition: 'answered' })).resolves.toMatchObject({ data: { id: 'acti_call1' } });
    expect(h.fake.requests.map((r) => r.body)).toEqual([
      { lead_id: 'lead_abc', note: 'Wants pricing' },
      { lead_id: 'lead_abc', direction: 'inbound', duration: 95, phone: '+15551234567', note: 'Booked', disposition: 'answered', status: 'completed' },
    ]);
  });

  it('400 surfaces Close’s field errors', async () => {
    h.fake.on('POST', '/api/v1/activity/note/', { status: 400, body: { 'field-errors': { lead_id: 'Object does not exist.' }, errors: [] } });
    await expect(run('add_note', { lead_id: 'lead_gone', note: 'x' })).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('Object does not exist.'), attempts: 1 });
  });

  it('ids are checked before sending', async () => {
    await expect(run('add_note', { lead_id: 'cont_abc', note: 'x' })).rejects.toMatchObject({ type: 'invalid_params', problems: [expect.stringContaining('lead_id')] });
    expect(h.fake.requests).toHaveLength(0);
  });
});
