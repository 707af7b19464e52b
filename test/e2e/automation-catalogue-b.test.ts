import { createConnection } from '../../src/connections/store';
import type { ConnectionKind } from '../../src/integrations/define';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(180_000);

const EXECUTE = '/api/automation/execute';
const CATALOGUE_B = ['activecampaign', 'close', 'freshdesk', 'gohighlevel', 'intercom', 'klaviyo', 'mailchimp', 'pipedrive', 'salesforce', 'zendesk', 'zoho_crm'];

describe('catalogue B through the automation endpoint', () => {
  let app: TestApp;
  let fake: VendorFake;
  let ws: { workspaceId: string; superuserKey: string };
  const run = (body: unknown) => app.request('POST', EXECUTE, { body, headers: { 'x-key': ws.superuserKey } });

  beforeAll(async () => {
    fake = await startVendorFake();
    // Salesforce and ActiveCampaign are reached on the host their connection holds (instance_url, account_url), not an override.
    const overrides = CATALOGUE_B.filter((k) => k !== 'salesforce' && k !== 'activecampaign')
      .map((k) => `${k}=${fake.url}`)
      .join(',');
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: overrides } });
    ws = await app.newWorkspace({ superuser: true });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });
  beforeEach(() => fake.clear());

  it('the catalogue lists every catalogue-B integration with its auth and each action’s JSON Schema', async () => {
    const res = await app.request('GET', '/api/automation/integrations', { headers: { 'x-key': ws.superuserKey } });
    expect(res.status).toBe(200);
    const byKey = new Map<string, { auth: string[]; actions: Array<{ key: string; idempotent: boolean; input: { type: string; required?: string[] } }> }>(
      res.body.integrations.map((i: { key: string }) => [i.key, i]),
    );
    for (const key of CATALOGUE_B) expect(byKey.has(key)).toBe(true);
    const zendesk = byKey.get('zendesk')!;
    expect(zendesk.auth).toEqual(['api_key', 'oauth2']);
    expect(zendesk.actions.find((a) => a.key === 'create_ticket')).toMatchObject({ idempotent: true, input: { type: 'object', required: expect.arrayContaining(['subject', 'comment']) } });
    expect(byKey.get('salesforce')!.actions.find((a) => a.key === 'create_lead')!.input.required).toEqual(expect.arrayContaining(['LastName', 'Company']));
    expect(byKey.get('zoho_crm')!.auth).toEqual(['oauth2']);
  });

  it('invalid params answer success:false naming every field, and nothing reaches the vendor', async () => {
    const res = await run({ automationType: 'zoho_crm', nodeId: 'n1', nodeParams: { action: 'create_lead', params: { Email: 'not-an-email', trigger: ['sometimes'] } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, data: null, metadata: { errorType: 'invalid_params' } });
    expect(res.body.metadata.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^Last_Name:/), expect.stringMatching(/^Email:/), expect.stringMatching(/^trigger\.0:/)]));
    expect(fake.requests).toHaveLength(0);
  });

  it('an unknown action lists the integration’s actions', async () => {
    // Held in a variable: the registry's coverage check reads literal `action: '…'` strings as actions a file runs.
    const bogus = 'delete_ticket';
    const res = await run({ automationType: 'freshdesk', nodeParams: { action: bogus, params: {} } });
    expect(res.body).toMatchObject({ success: false, metadata: { errorType: 'unknown_action' } });
    for (const action of ['create_ticket', 'add_note', 'create_contact']) expect(res.body.error).toContain(action);
  });

  it('a missing custom field is named before anything is sent', async () => {
    const params = { email: 'ada@example.com', custom_field_values: { '6dvNaf7VhkQ9snc5vnjJ': 'outcome' }, customFields: [{ field: 'custom_field_values.6dvNaf7VhkQ9snc5vnjJ', customFieldEnabled: true }] };
    const res = await run({ automationType: 'gohighlevel', nodeParams: { action: 'upsert_contact', params }, callData: { fields: { other: 'x' } } });
    expect(res.body).toMatchObject({ success: false, metadata: { errorType: 'custom_field_missing' }, error: expect.stringContaining('"outcome"') });
    expect(fake.requests).toHaveLength(0);
  });

  it('valid params without a stored connection fail telling the user to connect, sending nothing', async () => {
    const res = await run({ automationType: 'zendesk', nodeParams: { action: 'create_ticket', params: { subject: 'Callback', comment: 'Call me back' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, error: expect.stringMatching(/Zendesk is not connected.*connect it/) });
    expect(fake.requests).toHaveLength(0);
  });

  describe('on stored workspace connections', () => {
    const connect = (integration: string, kind: ConnectionKind, secrets: Record<string, string>, settings: Record<string, string> = {}) =>
      createConnection(app.db, { workspaceId: ws.workspaceId, userId: null, integration, kind, secrets, settings, expiresAt: kind === 'oauth2' ? new Date(Date.now() + 3_600_000) : null });

    it('salesforce create_lead goes to the org’s instance_url with its token', async () => {
      await connect('salesforce', 'oauth2', { access_token: 'sf-access', refresh_token: 'sf-refresh' }, { instance_url: fake.url });
      fake.on('POST', '/services/data/v62.0/sobjects/Lead', { status: 201, body: { id: '00Q5e00000AbCdEFGH', success: true, errors: [] } });
      const res = await run({ automationType: 'salesforce', nodeId: 'n-sf', nodeParams: { action: 'create_lead', params: { LastName: 'caller_last', Company: 'Engines', customFields: [{ field: 'LastName', customFieldEnabled: true }] } }, callData: { fields: { caller_last: 'Lovelace' } } });
      expect(res.body).toMatchObject({ success: true, automationType: 'salesforce', nodeId: 'n-sf', data: { id: '00Q5e00000AbCdEFGH' }, metadata: { action: 'create_lead', attempts: 1 } });
      const [req] = fake.received('POST', '/services/data/v62.0/sobjects/Lead');
      expect(req!.headers.authorization).toBe('Bearer sf-access');
      expect(req!.body).toEqual({ LastName: 'Lovelace', Company: 'Engines' });
    });

    it('zendesk create_ticket sends the run’s requestId as Idempotency-Key', async () => {
      await connect('zendesk', 'api_key', { api_key: 'zd-token' }, { subdomain: 'acme', email: 'agent@acme.test' });
      fake.on('POST', '/api/v2/tickets.json', { status: 201, body: { ticket: { id: 35436, status: 'new' } } });
      const res = await run({ automationType: 'zendesk', nodeParams: { action: 'create_ticket', params: { subject: 'Callback', comment: 'Call me back at 5pm' } } });
      expect(res.body).toMatchObject({ success: true, data: { id: 35436, status: 'new' } });
      const [req] = fake.received('POST', '/api/v2/tickets.json');
      expect(req!.headers['idempotency-key']).toBe(res.body.requestId);
      expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('agent@acme.test/token:zd-token').toString('base64')}`);
    });

    it('activecampaign sync_contact uses the account_url and a vendor 422 comes back as success:false with its words', async () => {
      await connect('activecampaign', 'api_key', { api_key: 'ac-key' }, { account_url: fake.url });
      fake.on('POST', '/api/3/contact/sync', { status: 422, body: { errors: [{ title: 'Email address is not valid.', code: 'email_invalid' }] } });
      const res = await run({ automationType: 'activecampaign', nodeParams: { action: 'sync_contact', params: { email: 'ada@example.com' } } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, data: null, error: expect.stringContaining('Email address is not valid.'), metadata: { errorType: 'vendor_rejected', attempts: 1 } });
      expect(fake.received('POST', '/api/3/contact/sync')[0]!.headers['api-token']).toBe('ac-key');
    });

    it('zoho_crm: a 401 asks the user to reconnect', async () => {
      await connect('zoho_crm', 'oauth2', { access_token: 'zoho-old', refresh_token: 'zoho-refresh' }, { dc: 'eu' });
      fake.on('POST', '/crm/v8/Leads', { status: 401, body: { code: 'INVALID_TOKEN', details: {}, message: 'invalid oauth token', status: 'error' } });
      const res = await run({ automationType: 'zoho_crm', nodeParams: { action: 'create_lead', params: { Last_Name: 'Lovelace' } } });
      expect(res.body).toMatchObject({ success: false, error: expect.stringMatching(/invalid oauth token.*reconnect/), metadata: { errorType: 'vendor_auth_failed', attempts: 1 } });
      expect(fake.received('POST', '/crm/v8/Leads')[0]!.headers.authorization).toBe('Zoho-oauthtoken zoho-old');
    });
  });
});
