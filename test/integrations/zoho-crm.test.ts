import type { Connection } from '../../src/integrations/define';
import { zohoBaseUrl } from '../../src/integrations/zoho_crm';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';

declareCoverage('zoho_crm', ['create_lead', 'upsert_contact', 'add_note']);

const check = vendorSpec('zoho-crm.json');
const connection: Connection = { id: 'c1', integration: 'zoho_crm', kind: 'oauth2', secrets: { access_token: '1000.zoho-token' }, settings: { dc: 'eu' } };
const created = (id: string, action?: string) => ({ status: 201, body: { data: [{ code: 'SUCCESS', status: 'success', message: 'record added', ...(action ? { action } : {}), details: { id } }] } });

describe('zoho_crm', () => {
  const h = vendorFakeRunner('zoho_crm', connection, 'req-1');
  const { run, waits } = h;

  it('create_lead posts one record with custom fields by API name, as Zoho describes the operation', async () => {
    h.fake.on('POST', '/crm/v8/Leads', created('4150868000000624001'));
    const out = await run('create_lead', { Last_Name: 'Lovelace', First_Name: 'Ada', Company: 'Engines', Email: 'ada@example.com', fields: { Call_Summary: 'wants a demo', Lead_Score: 7 } });
    expect(out).toMatchObject({ data: { id: '4150868000000624001' }, attempts: 1 });
    const [req] = h.fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.headers.authorization).toBe('Zoho-oauthtoken 1000.zoho-token');
    expect(req!.query).toEqual({});
    expect(req!.body).toEqual({
      data: [{ Call_Summary: 'wants a demo', Lead_Score: 7, Last_Name: 'Lovelace', First_Name: 'Ada', Company: 'Engines', Email: 'ada@example.com' }],
      trigger: ['workflow'],
    });
    expect(check(req!)).toEqual([]);
  });

  it('upsert_contact matches on the duplicate-check fields and reports insert or update', async () => {
    h.fake.on('POST', '/crm/v8/Contacts/upsert', { status: 200, body: { data: [{ code: 'SUCCESS', status: 'success', action: 'update', duplicate_field: 'Email', details: { id: '77' } }] } });
    const out = await run('upsert_contact', { Last_Name: 'Hopper', Email: 'grace@example.com', duplicate_check_fields: ['Email', 'Phone'], trigger: [] });
    expect(out.data).toEqual({ id: '77', action: 'update' });
    expect(h.fake.requests[0]!.body).toEqual({ data: [{ Last_Name: 'Hopper', Email: 'grace@example.com' }], duplicate_check_fields: ['Email', 'Phone'], trigger: [] });
  });

  it('add_note puts the note on its parent record, as Zoho describes the operation', async () => {
    h.fake.on('POST', '/crm/v8/Notes', created('900'));
    await expect(run('add_note', { parent_module: 'Leads', parent_id: '4150868000000624001', Note_Title: 'Call', Note_Content: 'Asked for pricing' })).resolves.toMatchObject({ data: { id: '900' } });
    const [req] = h.fake.requests;
    expect(req!.body).toEqual({ data: [{ Note_Title: 'Call', Note_Content: 'Asked for pricing', Parent_Id: { module: { api_name: 'Leads' }, id: '4150868000000624001' } }] });
    expect(check(req!)).toEqual([]);
  });

  it('a record refused inside a successful answer is a failure with Zoho’s code', async () => {
    h.fake.on('POST', '/crm/v8/Leads', { status: 207, body: { data: [{ code: 'INVALID_DATA', status: 'error', message: 'invalid data', details: { api_name: 'Email' } }] } });
    await expect(run('create_lead', { Last_Name: 'X', Email: 'x@example.com' })).rejects.toMatchObject({ type: 'vendor_error_in_body', retryable: false, message: expect.stringContaining('INVALID_DATA'), attempts: 1 });
  });

  it('429 is retried after Retry-After', async () => {
    h.fake.on('POST', '/crm/v8/Leads', { status: 429, headers: { 'retry-after': '3' }, body: { code: 'TOO_MANY_REQUESTS', message: 'slow down' } }, created('5'));
    await expect(run('create_lead', { Last_Name: 'X' })).resolves.toMatchObject({ data: { id: '5' }, attempts: 2 });
    expect(waits).toEqual([3000]);
  });

  it('invalid params name every problem and send nothing', async () => {
    await expect(run('add_note', { parent_module: 'Tickets', parent_id: 'abc' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringContaining('parent_module'), expect.stringContaining('parent_id'), expect.stringContaining('Note_Content')]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a body without the data array shape is reported', () => {
    expect(check({ method: 'POST', path: '/crm/v8/Leads', query: {}, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { data: 'Lovelace' } }).length).toBeGreaterThan(0);
  });

  it('picks the data centre host from api_domain or dc, refusing others', () => {
    const conn = (settings: Record<string, string>): Connection => ({ ...connection, settings });
    expect(zohoBaseUrl(conn({}))).toBe('https://www.zohoapis.com');
    expect(zohoBaseUrl(conn({ dc: 'eu' }))).toBe('https://www.zohoapis.eu');
    expect(zohoBaseUrl(conn({ dc: 'com.au' }))).toBe('https://www.zohoapis.com.au');
    expect(zohoBaseUrl(conn({ api_domain: 'https://www.zohoapis.in/' }))).toBe('https://www.zohoapis.in');
    expect(() => zohoBaseUrl(conn({ dc: 'evil.example' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    expect(() => zohoBaseUrl(conn({ api_domain: 'https://zohoapis.com.evil.example' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });
});
