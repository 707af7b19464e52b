import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { hubspot as cases } from './cases/hubspot';

const check = vendorSpec('hubspot.json');

// The requests of every action are the cases in ./cases/hubspot.ts; these are the variants, failures and refusals.
describe('hubspot create_contact', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (params: unknown, conn?: Connection) => h.run('create_contact', params, conn);

  it('returns the existing contact on 409 (a replay creates nothing twice)', async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts', { status: 409, body: { status: 'error', message: 'Contact already exists. Existing ID: 777', category: 'CONFLICT' } });
    await expect(run({ email: 'ada@example.com' })).resolves.toMatchObject({ data: { id: '777', existing: true }, attempts: 1 });
  });

  it('a custom field missing from callData is named, and nothing is sent', async () => {
    const params = { email: 'nope', customFields: [{ field: 'email', customFieldEnabled: true }] };
    await expect(runIntegrationAction({ integration: 'hubspot', action: 'create_contact', params, connection: h.connection, idempotencyKey: 'req-1', call: { callData: { fields: {} } } })).rejects.toMatchObject({ type: 'custom_field_missing', message: expect.stringContaining('"nope"') });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('surfaces HubSpot validation errors without retrying', async () => {
    h.fake.on('POST', '/crm/v3/objects/contacts', { status: 400, body: { status: 'error', message: 'Property values were not valid', category: 'VALIDATION_ERROR' } });
    await expect(run({ email: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('Property values were not valid'), attempts: 1 });
  });

  it('the description check can fail: an unknown top-level field is reported', () => {
    const problems = check({ method: 'POST', path: '/crm/v3/objects/contacts', query: {}, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { props: {} } });
    expect(problems.length).toBeGreaterThan(0);
  });
});
