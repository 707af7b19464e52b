import { activecampaignBaseUrl } from '../../src/integrations/activecampaign';
import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { declareCoverage } from '../helpers/declare-coverage';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

declareCoverage('activecampaign', ['sync_contact', 'add_tag', 'add_to_list', 'add_note']);

describe('activecampaign', () => {
  let fake: VendorFake;
  // The account's own API URL comes from the connection; no global override is involved.
  const connection = (): Connection => ({ id: 'c1', integration: 'activecampaign', kind: 'api_key', secrets: { api_key: 'ac-key-123' }, settings: { account_url: fake.url } });
  const run = (action: string, params: unknown, conn = connection()) =>
    runIntegrationAction({ action, integration: 'activecampaign', params, connection: conn, idempotencyKey: 'req-1', ssrfAllowlist: ['127.0.0.1/8'], http: { sleep: async () => undefined } });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('sync_contact sends Api-Token to the account host and custom fields as fieldValues by id', async () => {
    fake.on('POST', '/api/3/contact/sync', { status: 201, body: { contact: { id: '113', email: 'ada@example.com' } } });
    const out = await run('sync_contact', { email: 'ada@example.com', firstName: 'Ada', phone: '+15551234567', custom_field_values: { '1': 'booked', '7': 3 } });
    expect(out.data).toEqual({ id: '113' });
    const [req] = fake.requests;
    expect(req!.headers['api-token']).toBe('ac-key-123');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({
      contact: {
        email: 'ada@example.com',
        firstName: 'Ada',
        phone: '+15551234567',
        fieldValues: [
          { field: '1', value: 'booked' },
          { field: '7', value: '3' },
        ],
      },
    });
  });

  it('spec customFields resolve from callData.fields into fieldValues by field id', async () => {
    fake.on('POST', '/api/3/contact/sync', { status: 200, body: { contact: { id: 114 } } });
    const params = { email: 'ada@example.com', custom_field_values: { '4': 'summary' }, customFields: [{ field: 'custom_field_values.4', customFieldEnabled: true }] };
    const out = await runIntegrationAction({ integration: 'activecampaign', action: 'sync_contact', params, connection: connection(), idempotencyKey: 'req-1', call: { callData: { fields: { summary: 'Wants a demo on Friday' } } }, ssrfAllowlist: ['127.0.0.1/8'] });
    expect(out.data).toEqual({ id: '114' });
    expect(fake.requests[0]!.body).toEqual({ contact: { email: 'ada@example.com', fieldValues: [{ field: '4', value: 'Wants a demo on Friday' }] } });
  });

  it('add_tag, add_to_list and add_note write their wrapped objects', async () => {
    fake.on('POST', '/api/3/contactTags', { status: 201, body: { contactTag: { id: '9' } } });
    fake.on('POST', '/api/3/contactLists', { status: 201, body: { contactList: { id: 10 } } });
    fake.on('POST', '/api/3/notes', { status: 201, body: { note: { id: '11' } } });
    await expect(run('add_tag', { contact: 113, tag: '20' })).resolves.toMatchObject({ data: { id: '9' } });
    await expect(run('add_to_list', { contact: '113', list: 2 })).resolves.toMatchObject({ data: { id: '10' } });
    await expect(run('add_note', { contact: '113', note: 'Called; interested' })).resolves.toMatchObject({ data: { id: '11' } });
    expect(fake.requests.map((r) => r.body)).toEqual([
      { contactTag: { contact: '113', tag: '20' } },
      { contactList: { list: '2', contact: '113', status: 1 } },
      { note: { note: 'Called; interested', relid: '113', reltype: 'Subscriber' } },
    ]);
  });

  it('422 surfaces ActiveCampaign’s error title', async () => {
    fake.on('POST', '/api/3/contact/sync', { status: 422, body: { errors: [{ title: 'Email address is not valid.', detail: '', code: 'email_invalid', source: { pointer: '/data/attributes/email' } }] } });
    await expect(run('sync_contact', { email: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('Email address is not valid.'), attempts: 1 });
  });

  it('403 (bad token) asks to reconnect', async () => {
    fake.on('POST', '/api/3/notes', { status: 403, body: { message: 'No Result found for Subscriber with id 113' } });
    await expect(run('add_note', { contact: '113', note: 'x' })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringContaining('reconnect') });
  });

  it('derives the host from the account URL or name', () => {
    const conn = (settings: Record<string, string>): Connection => ({ ...connection(), settings });
    expect(activecampaignBaseUrl(conn({ account_url: 'https://acme.api-us1.com/' }))).toBe('https://acme.api-us1.com');
    expect(activecampaignBaseUrl(conn({ account: 'acme' }))).toBe('https://acme.api-us1.com');
    expect(() => activecampaignBaseUrl(conn({}))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    expect(() => activecampaignBaseUrl(conn({ account_url: 'https://acme.api-us1.com/api/3?x' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });
});
