import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { hubspot as cases } from './cases/hubspot';
import { resolveAction } from '../../src/integrations/run';

const check = vendorSpec('hubspot.json');

// The requests of every action are the cases in ./cases/hubspot.ts; these are the variants, failures and refusals.
describe('hubspot create_contact', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (params: unknown, conn?: Connection) => h.run('create_contact', params, conn);

  it('a custom field missing from callData is named, and nothing is sent', async () => {
    const params = { email: 'nope', customFields: [{ field: 'email', customFieldEnabled: true }] };
    await expect(
      runIntegrationAction({
        integration: 'hubspot',
        action: 'create_contact',
        params,
        connection: h.connection,
        idempotencyKey: 'req-1',
        call: { callData: { fields: {} } },
      }),
    ).rejects.toMatchObject({ type: 'custom_field_missing', message: expect.stringContaining('"nope"') });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('surfaces HubSpot validation errors without retrying', async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts', {
      status: 400,
      body: { status: 'error', message: 'Property values were not valid', category: 'VALIDATION_ERROR' },
    });
    await expect(run({ email: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('Property values were not valid'),
      attempts: 1,
    });
  });

  it('the description check can fail: an unknown top-level field is reported', () => {
    const problems = check({
      method: 'POST',
      path: '/crm/v3/objects/contacts',
      query: {},
      headers: { 'content-type': 'application/json' },
      rawBody: '{}',
      body: { props: {} },
    });
    expect(problems.length).toBeGreaterThan(0);
  });
});

describe('hubspot depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it('create_contact on a taken email writes the supplied properties to the existing contact', async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts', {
      status: 409,
      body: { status: 'error', message: 'Contact already exists. Existing ID: 777', category: 'CONFLICT' },
    });
    h.fake.on('PATCH', '/crm/v3/objects/contacts/777', { status: 200, body: { id: '777', properties: { email: 'ada@example.com', phone: '+14155550100' } } });
    const out = await h.run('create_contact', { email: 'ada@example.com', phone: '+14155550100' });
    expect(out.data).toEqual({ id: '777', existing: true, properties: { email: 'ada@example.com', phone: '+14155550100' } });
    expect(h.fake.received('PATCH', '/crm/v3/objects/contacts/777').map((r) => r.body)).toEqual([
      { properties: { email: 'ada@example.com', phone: '+14155550100' } },
    ]);
  });

  it('create_contact: a contact deleted between the 409 and the update is vendor_not_found', async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts', {
      status: 409,
      body: { status: 'error', message: 'Contact already exists. Existing ID: 778', category: 'CONFLICT' },
    });
    h.fake.on('PATCH', '/crm/v3/objects/contacts/778', {
      status: 404,
      body: { status: 'error', message: 'Object not found.  objectId are usually numeric.', category: 'OBJECT_NOT_FOUND' },
    });
    await expect(h.run('create_contact', { email: 'gone@example.com' })).rejects.toMatchObject({ type: 'vendor_not_found' });
  });

  it('upsert_contact reports a created contact; search_contacts with no match is an empty list', async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts/batch/upsert', {
      status: 200,
      body: { status: 'COMPLETE', results: [{ id: '9', new: true, properties: {} }] },
    });
    await expect(h.run('upsert_contact', { email: 'new@example.com' })).resolves.toMatchObject({ data: { id: '9', created: true } });
    h.fake.on('POST', '/crm/v3/objects/contacts/search', { status: 200, body: { total: 0, results: [] } });
    await expect(h.run('search_contacts', { query: 'nobody' })).resolves.toMatchObject({ data: { total: 0, contacts: [] } });
    expect(h.fake.received('POST', '/crm/v3/objects/contacts/search')[0]!.body).toEqual({
      query: 'nobody',
      properties: ['email', 'firstname', 'lastname', 'phone'],
      limit: 10,
    });
  });

  it("upsert_contact: a 207 whose row failed is the contact's failure, not a crash", async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts/batch/upsert', {
      status: 207,
      body: {
        status: 'COMPLETE',
        results: [],
        numErrors: 1,
        errors: [{ status: 'error', category: 'VALIDATION_ERROR', message: 'Property values were not valid' }],
      },
    });
    await expect(h.run('upsert_contact', { email: 'x@example.com', properties: { lifecyclestage: 'nope' } })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      message: expect.stringContaining('Property values were not valid'),
      retryable: false,
    });
  });

  it('refuses params that name no record, or the same type twice, sending nothing', async () => {
    await expect(h.run('update_contact', { email: 'a@example.com', id: '5', properties: { phone: '1' } })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringContaining('exactly one of email and id')],
    });
    await expect(h.run('search_contacts', {})).rejects.toMatchObject({ type: 'invalid_params' });
    await expect(h.run('associate', { from_type: 'deals', from_id: '1', to_type: 'deals', to_id: '2' })).rejects.toMatchObject({ type: 'invalid_params' });
    await expect(h.run('add_note', { body: 'x', attach_to: [] })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('a stored journey that omits the action still runs create_contact', () => {
    expect(resolveAction('hubspot', undefined).action.key).toBe('create_contact');
  });
});
