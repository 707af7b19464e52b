import type { Connection } from '../../src/integrations/define';
import pipedrive from '../../src/integrations/pipedrive';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';

declareCoverage('pipedrive', ['create_person', 'create_lead', 'add_note']);

const connection: Connection = { id: 'c1', integration: 'pipedrive', kind: 'api_key', secrets: { api_key: '659c9fddb16335e48cc67114694b52074e812e03' }, settings: { company_domain: 'acme' } };
const FIELD = 'dcf558aac1ae4e8c4f849ba5e668430d8df9be12';

describe('pipedrive', () => {
  const h = vendorFakeRunner('pipedrive', connection, 'req-1');
  const { run } = h;

  it('create_person (v2) sends the token in x-api-token, emails/phones as arrays and custom fields by key', async () => {
    h.fake.on('POST', '/api/v2/persons', { status: 200, body: { success: true, data: { id: 42, name: 'Ada Lovelace' } } });
    const out = await run('create_person', { name: 'Ada Lovelace', emails: ['ada@example.com'], phones: ['+15551234567', '+15557654321'], org_id: 7, custom_fields: { [FIELD]: 'booked' } });
    expect(out.data).toEqual({ id: 42 });
    const [req] = h.fake.requests;
    expect(req!.headers['x-api-token']).toBe('659c9fddb16335e48cc67114694b52074e812e03');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.query).toEqual({});
    expect(req!.body).toEqual({
      name: 'Ada Lovelace',
      emails: [{ value: 'ada@example.com', primary: true, label: 'work' }],
      phones: [
        { value: '+15551234567', primary: true, label: 'work' },
        { value: '+15557654321', primary: false, label: 'work' },
      ],
      org_id: 7,
      custom_fields: { [FIELD]: 'booked' },
    });
  });

  it('create_lead links the lead to a person (OAuth: Bearer)', async () => {
    h.fake.on('POST', '/api/v1/leads', { status: 201, body: { success: true, data: { id: 'adf21080-0e10-11eb-879b-05d71fb426ec' } } });
    const out = await run('create_lead', { title: 'Inbound call', person_id: 42, value: { amount: 500, currency: 'USD' } }, { ...connection, kind: 'oauth2', secrets: { access_token: 'v1:oauth' } });
    expect(out.data).toEqual({ id: 'adf21080-0e10-11eb-879b-05d71fb426ec' });
    expect(h.fake.requests[0]!.headers.authorization).toBe('Bearer v1:oauth');
    expect(h.fake.requests[0]!.body).toEqual({ title: 'Inbound call', person_id: 42, value: { amount: 500, currency: 'USD' } });
  });

  it('add_note attaches the note to the person', async () => {
    h.fake.on('POST', '/api/v1/notes', { status: 201, body: { success: true, data: { id: 9 } } });
    await expect(run('add_note', { content: 'Called; wants a quote', person_id: 42, pinned_to_person_flag: true })).resolves.toMatchObject({ data: { id: 9 } });
    expect(h.fake.requests[0]!.body).toEqual({ content: 'Called; wants a quote', person_id: 42, pinned_to_person_flag: 1 });
  });

  it('success:false in a 200 answer is a failure', async () => {
    h.fake.on('POST', '/api/v1/notes', { status: 200, body: { success: false, error: 'Note content is invalid' } });
    await expect(run('add_note', { content: 'x', deal_id: 1 })).rejects.toMatchObject({ type: 'vendor_error_in_body', message: expect.stringContaining('Note content is invalid'), attempts: 1 });
  });

  it('404 fails without retrying', async () => {
    h.fake.on('POST', '/api/v1/leads', { status: 404, body: { success: false, error: 'Person not found' } });
    await expect(run('create_lead', { title: 't', person_id: 999 })).rejects.toMatchObject({ type: 'vendor_not_found', message: expect.stringContaining('Person not found'), attempts: 1 });
  });

  it('a lead needs a person or an organization; nothing is sent', async () => {
    await expect(run('create_lead', { title: 't' })).rejects.toMatchObject({ type: 'invalid_params', problems: ['person_id: give person_id or organization_id'] });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('uses the company domain (OAuth api_domain first) as the host', () => {
    const base = pipedrive.baseUrl as (c: Connection) => string;
    expect(base({ ...connection, settings: {} })).toBe('https://api.pipedrive.com');
    expect(base(connection)).toBe('https://acme.pipedrive.com');
    expect(base({ ...connection, settings: { api_domain: 'https://beta.pipedrive.com', company_domain: 'acme' } })).toBe('https://beta.pipedrive.com');
    expect(base({ ...connection, settings: { api_domain: 'https://evil.example', company_domain: 'acme' } })).toBe('https://acme.pipedrive.com');
  });
});
