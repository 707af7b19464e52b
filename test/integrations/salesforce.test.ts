import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { declareCoverage } from '../helpers/declare-coverage';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

declareCoverage('salesforce', ['create_lead', 'upsert_record', 'log_call']);

describe('salesforce', () => {
  let fake: VendorFake;
  // The org's own host comes from the connection (instance_url); no global override is involved.
  const connection = (): Connection => ({ id: 'c1', integration: 'salesforce', kind: 'oauth2', secrets: { access_token: '00Dxx!AQ4AQ' }, settings: { instance_url: `${fake.url}/` } });
  const run = (action: string, params: unknown, conn = connection()) =>
    runIntegrationAction({ action, integration: 'salesforce', params, connection: conn, idempotencyKey: 'req-1', ssrfAllowlist: ['127.0.0.1/8'], http: { sleep: async () => undefined } });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('create_lead posts the Lead sObject to the org’s instance_url', async () => {
    fake.on('POST', '/services/data/v62.0/sobjects/Lead', { status: 201, body: { id: '00Q5e00000AbCdEFGH', success: true, errors: [] } });
    const out = await run('create_lead', { LastName: 'Lovelace', Company: 'Engines', Email: 'ada@example.com', fields: { Call_Summary__c: 'wants a demo', Rating: 'Hot' } });
    expect(out).toMatchObject({ data: { id: '00Q5e00000AbCdEFGH' }, attempts: 1 });
    const [req] = fake.requests;
    expect(req!.headers).toMatchObject({ authorization: 'Bearer 00Dxx!AQ4AQ', 'content-type': 'application/json' });
    expect(req!.body).toEqual({ Call_Summary__c: 'wants a demo', Rating: 'Hot', LastName: 'Lovelace', Company: 'Engines', Email: 'ada@example.com' });
  });

  it('upsert_record PATCHes the external-id URL and tells created from updated', async () => {
    fake.on('PATCH', '/services/data/v62.0/sobjects/Contact/Phone_Key__c/%2B15551234567', { status: 201, body: { id: '0035e00000XyZ', success: true, created: true } });
    const out = await run('upsert_record', { object: 'Contact', external_id_field: 'Phone_Key__c', external_id: '+15551234567', fields: { LastName: 'Hopper' } });
    expect(out.data).toEqual({ id: '0035e00000XyZ', created: true });
    expect(fake.requests[0]!.body).toEqual({ LastName: 'Hopper' });
  });

  it('log_call records a completed call Task on the lead', async () => {
    fake.on('POST', '/services/data/v62.0/sobjects/Task', { status: 201, body: { id: '00T5e00000Qq1', success: true, errors: [] } });
    await run('log_call', { Subject: 'AI call', WhoId: '00Q5e00000AbCdEFGH', CallDurationInSeconds: 95, CallType: 'Outbound', Description: 'Booked' });
    expect(fake.requests[0]!.body).toEqual({ Subject: 'AI call', WhoId: '00Q5e00000AbCdEFGH', CallDurationInSeconds: 95, CallType: 'Outbound', Description: 'Booked', Status: 'Completed', TaskSubtype: 'Call' });
  });

  it('401 (expired session) fails telling the user to reconnect, without retrying', async () => {
    fake.on('POST', '/services/data/v62.0/sobjects/Lead', { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }] });
    await expect(run('create_lead', { LastName: 'X', Company: 'Y' })).rejects.toMatchObject({ type: 'vendor_auth_failed', retryable: false, message: expect.stringMatching(/Session expired.*reconnect/), attempts: 1 });
  });

  it('400 surfaces Salesforce’s validation message', async () => {
    fake.on('POST', '/services/data/v62.0/sobjects/Lead', { status: 400, body: [{ message: 'Required fields are missing: [Company]', errorCode: 'REQUIRED_FIELD_MISSING', fields: ['Company'] }] });
    await expect(run('create_lead', { LastName: 'X', Company: 'Y' })).rejects.toMatchObject({ type: 'vendor_rejected', message: 'Salesforce rejected the request (400: Required fields are missing: [Company])' });
  });

  it('a connection without instance_url fails asking to reconnect, sending nothing', async () => {
    await expect(run('create_lead', { LastName: 'X', Company: 'Y' }, { ...connection(), settings: {} })).rejects.toMatchObject({ type: 'connection_incomplete', message: expect.stringContaining('instance_url') });
    expect(fake.requests).toHaveLength(0);
  });
});
