import type { Connection } from '../../src/integrations/define';
import pipedrive from '../../src/integrations/pipedrive';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { pipedrive as cases } from './cases/pipedrive';

// The requests of every action are the cases in ./cases/pipedrive.ts; these are the variants, failures and refusals.
describe('pipedrive', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run } = h;

  it('create_lead links the lead to a person (OAuth: Bearer)', async () => {
    h.fake.on('POST', '/api/v1/leads', { status: 201, body: { success: true, data: { id: 'adf21080-0e10-11eb-879b-05d71fb426ec' } } });
    const out = await run(
      'create_lead',
      { title: 'Inbound call', person_id: 42, value: { amount: 500, currency: 'USD' } },
      { ...h.connection, kind: 'oauth2', secrets: { access_token: 'v1:oauth' } },
    );
    expect(out.data).toEqual({ id: 'adf21080-0e10-11eb-879b-05d71fb426ec' });
    expect(h.fake.requests[0]!.headers.authorization).toBe('Bearer v1:oauth');
    expect(h.fake.requests[0]!.body).toEqual({ title: 'Inbound call', person_id: 42, value: { amount: 500, currency: 'USD' } });
  });

  it('success:false in a 200 answer is a failure', async () => {
    h.fake.on('POST', '/api/v1/notes', { status: 200, body: { success: false, error: 'Note content is invalid' } });
    await expect(run('add_note', { content: 'x', deal_id: 1 })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      message: expect.stringContaining('Note content is invalid'),
      attempts: 1,
    });
  });

  it('404 fails without retrying', async () => {
    h.fake.on('POST', '/api/v1/leads', { status: 404, body: { success: false, error: 'Person not found' } });
    await expect(run('create_lead', { title: 't', person_id: 999 })).rejects.toMatchObject({
      type: 'vendor_not_found',
      message: expect.stringContaining('Person not found'),
      attempts: 1,
    });
  });

  it('a lead needs a person or an organization; nothing is sent', async () => {
    await expect(run('create_lead', { title: 't' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: ['person_id: give person_id or organization_id'],
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('uses the company domain (OAuth api_domain first) as the host', () => {
    const base = pipedrive.baseUrl as (c: Connection) => string;
    expect(base({ ...h.connection, settings: {} })).toBe('https://api.pipedrive.com');
    expect(base(h.connection)).toBe('https://acme.pipedrive.com');
    expect(base({ ...h.connection, settings: { api_domain: 'https://beta.pipedrive.com', company_domain: 'acme' } })).toBe('https://beta.pipedrive.com');
    expect(base({ ...h.connection, settings: { api_domain: 'https://evil.example', company_domain: 'acme' } })).toBe('https://acme.pipedrive.com');
  });
});

describe('pipedrive depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it('find_person: no match (data null) is an empty list; success:false is a failure', async () => {
    h.fake.on('GET', '/api/v2/persons/search', { status: 200, body: { success: true, data: null } });
    await expect(h.run('find_person', { term: 'nobody' })).resolves.toMatchObject({ data: { persons: [] } });
    h.fake.on('PATCH', '/api/v2/deals/5', { status: 200, body: { success: false, error: 'Stage not found' } });
    await expect(h.run('update_deal', { id: 5, stage_id: 99 })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      message: 'Pipedrive said Stage not found',
    });
  });

  it('an update that changes nothing is refused and nothing is sent', async () => {
    await expect(h.run('update_person', { id: 12 })).rejects.toMatchObject({ type: 'invalid_params' });
    await expect(h.run('update_deal', { id: 77 })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });
});
