import type { Connection } from '../../src/integrations/define';
import { zohoBaseUrl } from '../../src/integrations/zoho_crm';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { zoho_crm as cases } from './cases/zoho-crm';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('zoho-crm.json');
const created = (id: string, action?: string) => ({
  status: 201,
  body: { data: [{ code: 'SUCCESS', status: 'success', message: 'record added', ...(action ? { action } : {}), details: { id } }] },
});

// The requests of every action are the cases in ./cases/zoho-crm.ts; these are the variants, failures and refusals.
describe('zoho_crm', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run, waits } = h;

  it('a record refused inside a successful answer is a failure with Zoho’s code', async () => {
    h.fake.on('POST', '/crm/v8/Leads', {
      status: 207,
      body: { data: [{ code: 'INVALID_DATA', status: 'error', message: 'invalid data', details: { api_name: 'Email' } }] },
    });
    await expect(run('create_lead', { Last_Name: 'X', Email: 'x@example.com' })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      retryable: false,
      message: expect.stringContaining('INVALID_DATA'),
      attempts: 1,
    });
  });

  it('429 is retried after Retry-After', async () => {
    h.fake.on(
      'POST',
      '/crm/v8/Leads',
      { status: 429, headers: { 'retry-after': '3' }, body: { code: 'TOO_MANY_REQUESTS', message: 'slow down' } },
      created('5'),
    );
    await expect(run('create_lead', { Last_Name: 'X' })).resolves.toMatchObject({ data: { id: '5' }, attempts: 2 });
    expect(waits).toEqual([3000]);
  });

  it('invalid params name every problem and send nothing', async () => {
    await expect(run('add_note', { parent_module: 'Tickets', parent_id: 'abc' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([
        expect.stringContaining('parent_module'),
        expect.stringContaining('parent_id'),
        expect.stringContaining('Note_Content'),
      ]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a body without the data array shape is reported', () => {
    expect(
      check({ method: 'POST', path: '/crm/v8/Leads', query: {}, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { data: 'Lovelace' } })
        .length,
    ).toBeGreaterThan(0);
  });

  it('picks the data centre host from api_domain or dc, refusing others', () => {
    const conn = (settings: Record<string, string>): Connection => ({ ...h.connection, settings });
    expect(zohoBaseUrl(conn({}))).toBe('https://www.zohoapis.com');
    expect(zohoBaseUrl(conn({ dc: 'eu' }))).toBe('https://www.zohoapis.eu');
    expect(zohoBaseUrl(conn({ dc: 'com.au' }))).toBe('https://www.zohoapis.com.au');
    expect(zohoBaseUrl(conn({ api_domain: 'https://www.zohoapis.in/' }))).toBe('https://www.zohoapis.in');
    expect(() => zohoBaseUrl(conn({ dc: 'evil.example' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    expect(() => zohoBaseUrl(conn({ api_domain: 'https://zohoapis.com.evil.example' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });
});

describe('zoho_crm depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it("find_records: Zoho's 204 (no match) is an empty list", async () => {
    h.fake.on('GET', '/crm/v8/Leads/search', { status: 204 });
    await expect(h.run('find_records', { module: 'Leads', phone: '+14155550100' })).resolves.toMatchObject({ data: { records: [], more: false }, attempts: 1 });
  });

  it("update_record: a row error in a 200 is the record's failure", async () => {
    h.fake.on('PUT', '/crm/v8/Deals/1', {
      status: 200,
      body: { data: [{ code: 'INVALID_DATA', status: 'error', message: 'invalid data', details: { api_name: 'Stage' } }] },
    });
    await expect(h.run('update_record', { module: 'Deals', id: '1', fields: { Stage: 'Nope' } })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      message: expect.stringContaining('INVALID_DATA'),
    });
  });

  it('find_records takes exactly one criterion; update_record at least one field; nothing is sent otherwise', async () => {
    await expect(h.run('find_records', { module: 'Leads', email: 'a@example.com', word: 'ada' })).rejects.toMatchObject({ type: 'invalid_params' });
    await expect(h.run('update_record', { module: 'Leads', id: '1', fields: {} })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });
});
