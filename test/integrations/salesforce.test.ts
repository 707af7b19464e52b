import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { caseConnection } from '../helpers/action-cases';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { salesforce as cases } from './cases/salesforce';

// The requests of every action are the cases in ./cases/salesforce.ts; these are the failures and the host rules.
describe('salesforce', () => {
  let fake: VendorFake;
  // The org's own host comes from the connection (instance_url); no global override is involved.
  const connection = (): Connection => caseConnection(cases, fake.url);
  const run = (action: string, params: unknown, conn = connection()) =>
    runIntegrationAction({
      action,
      integration: 'salesforce',
      params,
      connection: conn,
      idempotencyKey: 'req-1',
      ssrfAllowlist: ['127.0.0.1/8'],
      http: { sleep: async () => undefined },
    });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('401 (expired session) fails telling the user to reconnect, without retrying', async () => {
    fake.on('POST', '/services/data/v62.0/sobjects/Lead', { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }] });
    await expect(run('create_lead', { LastName: 'X', Company: 'Y' })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      retryable: false,
      message: expect.stringMatching(/Session expired.*reconnect/),
      attempts: 1,
    });
  });

  it('400 surfaces Salesforce’s validation message', async () => {
    fake.on('POST', '/services/data/v62.0/sobjects/Lead', {
      status: 400,
      body: [{ message: 'Required fields are missing: [Company]', errorCode: 'REQUIRED_FIELD_MISSING', fields: ['Company'] }],
    });
    await expect(run('create_lead', { LastName: 'X', Company: 'Y' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: 'Salesforce rejected the request (400: Required fields are missing: [Company])',
    });
  });

  it('a connection without instance_url fails asking to reconnect, sending nothing', async () => {
    await expect(run('create_lead', { LastName: 'X', Company: 'Y' }, { ...connection(), settings: {} })).rejects.toMatchObject({
      type: 'connection_incomplete',
      message: expect.stringContaining('instance_url'),
    });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('salesforce depth', () => {
  let fake: VendorFake;
  const run = (action: string, params: unknown) =>
    runIntegrationAction({
      action,
      integration: 'salesforce',
      params,
      connection: caseConnection(cases, fake.url),
      idempotencyKey: 'req-1',
      ssrfAllowlist: ['127.0.0.1/8'],
      http: { sleep: async () => undefined },
    });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it("upsert_lead: creating a lead without LastName surfaces Salesforce's REQUIRED_FIELD_MISSING after the lookup", async () => {
    fake.on('GET', '/services/data/v62.0/query', { status: 200, body: { totalSize: 0, done: true, records: [] } });
    fake.on('POST', '/services/data/v62.0/sobjects/Lead', {
      status: 400,
      body: [{ message: 'Required fields are missing: [LastName, Company]', errorCode: 'REQUIRED_FIELD_MISSING' }],
    });
    await expect(run('upsert_lead', { Email: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('LastName'),
    });
    expect(fake.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });

  it('update_record refuses a malformed id or no fields and sends nothing', async () => {
    await expect(run('update_record', { object: 'Lead', id: '../Account/1', fields: { Status: 'x' } })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^id:/)],
    });
    await expect(run('update_record', { object: 'Lead', id: '00Q5e00000AbCdEFGH', fields: {} })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(fake.requests).toHaveLength(0);
  });
});
