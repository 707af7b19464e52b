import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('hubspot.json');
const connection: Connection = { id: 'c1', integration: 'hubspot', kind: 'api_key', secrets: { api_key: 'pat-na1-test' }, settings: {} };

describe('hubspot create_contact', () => {
  let fake: VendorFake;
  const run = (params: unknown, call?: Record<string, unknown>) =>
    runIntegrationAction({ integration: 'hubspot', action: 'create_contact', params, connection, idempotencyKey: 'req-1', call: { callData: call }, baseUrls: { hubspot: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('creates the contact as HubSpot describes the operation', async () => {
    fake.on('POST', '/crm/v3/objects/contacts', { status: 201, body: { id: '501', properties: { email: 'ada@example.com' }, createdAt: '2026-01-01T00:00:00Z' } });
    const out = await run({ email: 'ada@example.com', firstname: 'Ada', properties: { hs_lead_status: 'NEW' } });
    expect(out.data).toEqual({ id: '501', existing: false, properties: { email: 'ada@example.com' } });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer pat-na1-test');
    expect(req!.body).toEqual({ properties: { hs_lead_status: 'NEW', email: 'ada@example.com', firstname: 'Ada' }, associations: [] });
    expect(check(req!)).toEqual([]);
  });

  it('resolves custom fields from callData.fields before validating', async () => {
    fake.on('POST', '/crm/v3/objects/contacts', { status: 201, body: { id: '502', properties: {} } });
    await run({ email: 'lead_email', customFields: [{ field: 'email', customFieldEnabled: true }, { field: 'firstname', customFieldEnabled: false }], firstname: 'Bob' }, { fields: { lead_email: 'bob@example.com' } });
    expect(fake.requests[0]!.body).toEqual({ properties: { email: 'bob@example.com', firstname: 'Bob' }, associations: [] });
    await expect(run({ email: 'nope', customFields: [{ field: 'email', customFieldEnabled: true }] }, { fields: {} })).rejects.toMatchObject({ type: 'custom_field_missing', message: expect.stringContaining('"nope"') });
    expect(fake.requests).toHaveLength(1);
  });

  it('returns the existing contact on 409 (a replay creates nothing twice)', async () => {
    fake.on('POST', '/crm/v3/objects/contacts', { status: 409, body: { status: 'error', message: 'Contact already exists. Existing ID: 777', category: 'CONFLICT' } });
    await expect(run({ email: 'ada@example.com' })).resolves.toMatchObject({ data: { id: '777', existing: true }, attempts: 1 });
  });

  it('surfaces HubSpot validation errors without retrying', async () => {
    fake.on('POST', '/crm/v3/objects/contacts', { status: 400, body: { status: 'error', message: 'Property values were not valid', category: 'VALIDATION_ERROR' } });
    await expect(run({ email: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('Property values were not valid'), attempts: 1 });
  });

  it('the description check can fail: an unknown top-level field is reported', () => {
    const problems = check({ method: 'POST', path: '/crm/v3/objects/contacts', query: {}, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { props: {} } });
    expect(problems.length).toBeGreaterThan(0);
  });
});
