import { createConnection } from '../../src/connections/store';
import { listIntegrations } from '../../src/integrations/registry';
import { baseOverride, expectExchanges, fill, scriptedAnswers, type CaseContext } from '../helpers/action-cases';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { allCases } from '../integrations/cases';

jest.setTimeout(180_000);

const EXECUTE = '/api/automation/execute';

/**
 * Every request case of every integration (test/integrations/cases/) through POST /api/automation/execute: superuser
 * mode on the workspace's stored connections, each integration pointed at a fake vendor on loopback (base-URL override,
 * or the connection's own host), the exact requests checked and validated against the vendor's description. Then the
 * endpoint's refusals and vendor failures, once each.
 */
describe('the integration catalogue through POST /api/automation/execute', () => {
  let app: TestApp;
  let fake: VendorFake;
  let hooks: VendorFake;
  let ws: { workspaceId: string; superuserKey: string };
  const run = (body: unknown, key = ws.superuserKey) => app.request('POST', EXECUTE, { body, headers: { 'x-key': key } });
  const places = () => ({ fake: fake.url, hooks: hooks.url, requestId: '' });

  beforeAll(async () => {
    fake = await startVendorFake();
    hooks = await startVendorFake();
    const bases = allCases.flatMap((set) => {
      const base = baseOverride(set, fake.url);
      return base === undefined ? [] : [`${set.integration}=${base}`];
    });
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: bases.join(',') } });
    ws = await app.newWorkspace({ superuser: true });
    for (const set of allCases) {
      if (set.connection.kind === 'none') continue;
      const c = fill(set.connection, places());
      await createConnection(app.db, {
        workspaceId: ws.workspaceId,
        userId: null,
        integration: set.integration,
        kind: c.kind,
        secrets: c.secrets,
        settings: c.settings ?? {},
      });
    }
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
    await hooks?.stop();
  });
  beforeEach(() => {
    fake.clear();
    hooks.clear();
    fake.answerInOrder();
    hooks.answerInOrder();
  });

  const rows = allCases.flatMap((set) => set.cases.map((c) => [`${set.integration}.${c.action}${c.name ? ` (${c.name})` : ''}`, set, c] as const));
  it.each(rows)('%s: the exact requests once each, and success with the action’s data', async (_name, set, c) => {
    // The answers are scripted before the run, so they cannot name the requestId; none needs to.
    const answers = scriptedAnswers(c, places());
    fake.answerInOrder(...answers.fake);
    hooks.answerInOrder(...answers.hooks);
    const res = await run({
      automationType: set.integration,
      nodeId: 'n1',
      nodeParams: { action: c.action, params: fill(c.params, places()) },
      ...(c.callData ? { callData: c.callData } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      automationType: set.integration,
      nodeId: 'n1',
      metadata: { action: c.action, attempts: c.exchanges.length, superuser: true },
    });
    expect(res.body.data).toEqual(c.data);
    const ctx: CaseContext = { ...places(), requestId: res.body.requestId };
    await expectExchanges(set, c, { fake: fake.requests, hooks: hooks.requests }, ctx);
  });

  it('the stored run keeps the outcome and none of the connection’s secrets', async () => {
    const monday = allCases.find((s) => s.integration === 'monday')!;
    const c = monday.cases[0]!;
    fake.answerInOrder(c.exchanges[0]!.response);
    const res = await run({ automationType: 'monday', nodeParams: { action: c.action, params: c.params } });
    expect(res.body).toMatchObject({ success: true });
    const stored = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': ws.superuserKey } });
    expect(stored.body).toMatchObject({ status: 'succeeded', success: true });
    expect(JSON.stringify(stored.body)).not.toContain(monday.connection.secrets.api_key);
  });

  it('GET /api/automation/integrations publishes every integration with its auth and every action’s JSON Schema', async () => {
    const res = await app.request('GET', '/api/automation/integrations', { headers: { 'x-key': ws.superuserKey } });
    expect(res.status).toBe(200);
    type Listed = {
      key: string;
      auth: string[];
      actions: Array<{ key: string; idempotent: boolean; input: { type: string; required?: string[]; properties: Record<string, unknown> } }>;
    };
    const byKey = new Map<string, Listed>(res.body.integrations.map((i: Listed) => [i.key, i]));
    const published = [...byKey.values()].flatMap((i) => i.actions.map((a) => `${i.key}.${a.key}`));
    expect(published.sort()).toEqual(
      listIntegrations()
        .flatMap((i) => i.actions.map((a) => `${i.key}.${a.key}`))
        .sort(),
    );
    for (const i of byKey.values())
      for (const a of i.actions) expect({ action: `${i.key}.${a.key}`, type: a.input.type }).toEqual({ action: `${i.key}.${a.key}`, type: 'object' });
    expect(byKey.get('zendesk')!.auth).toEqual(['api_key', 'oauth2']);
    expect(byKey.get('zendesk')!.actions.find((a) => a.key === 'create_ticket')).toMatchObject({
      idempotent: true,
      input: { required: expect.arrayContaining(['subject', 'comment']) },
    });
    expect(byKey.get('salesforce')!.actions.find((a) => a.key === 'create_lead')!.input.required).toEqual(expect.arrayContaining(['LastName', 'Company']));
    expect(Object.keys(byKey.get('calcom')!.actions.find((a) => a.key === 'create_booking')!.input.properties)).toEqual(
      expect.arrayContaining(['start', 'eventTypeId', 'attendee']),
    );
    expect(byKey.get('zoho_crm')!.auth).toEqual(['oauth2']);
    expect(byKey.get('jira')!.auth).toEqual(['basic', 'oauth2']);
  });

  describe('refusals: success:false naming the problem, nothing sent', () => {
    afterEach(() => expect(fake.requests).toHaveLength(0));

    it('invalid params name every field path', async () => {
      const zoho = await run({
        automationType: 'zoho_crm',
        nodeId: 'n1',
        nodeParams: { action: 'create_lead', params: { Email: 'not-an-email', trigger: ['sometimes'] } },
      });
      expect(zoho.status).toBe(200);
      expect(zoho.body).toMatchObject({ success: false, data: null, metadata: { errorType: 'invalid_params' } });
      expect(zoho.body.metadata.problems).toEqual(
        expect.arrayContaining([expect.stringMatching(/^Last_Name:/), expect.stringMatching(/^Email:/), expect.stringMatching(/^trigger\.0:/)]),
      );
      const stripe = await run({
        automationType: 'stripe',
        nodeParams: { action: 'create_payment_link', params: { lineItems: [{ price: 'nope', quantity: 0 }] } },
      });
      expect(stripe.body).toMatchObject({
        success: false,
        metadata: {
          errorType: 'invalid_params',
          problems: expect.arrayContaining([expect.stringMatching(/^lineItems\.0\.price:/), expect.stringMatching(/^lineItems\.0\.quantity:/)]),
        },
      });
      const calcom = await run({
        automationType: 'calcom',
        nodeParams: { action: 'create_booking', params: { start: 5, attendee: { name: '', timeZone: 'UTC' } } },
      });
      expect(calcom.body).toMatchObject({ success: false, automationType: 'calcom', metadata: { errorType: 'invalid_params' } });
      expect(calcom.body.metadata.problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^start:/),
          expect.stringMatching(/^attendee\.name:/),
          expect.stringMatching(/^attendee\.email: email or phoneNumber is required/),
        ]),
      );
    });

    it('an unknown action lists the integration’s actions', async () => {
      const freshdesk = await run({ automationType: 'freshdesk', nodeParams: { action: 'delete_ticket', params: {} } });
      expect(freshdesk.body).toMatchObject({ success: false, metadata: { errorType: 'unknown_action' } });
      for (const action of ['create_ticket', 'add_note', 'create_contact']) expect(freshdesk.body.error).toContain(action);
      const monday = await run({ automationType: 'monday', nodeParams: { action: 'delete_board', params: {} } });
      expect(monday.body.error).toContain('create_item, change_column_values, add_update');
    });

    it('a custom field missing from callData is named', async () => {
      const ghl = await run({
        automationType: 'gohighlevel',
        nodeParams: {
          action: 'upsert_contact',
          params: {
            email: 'ada@example.com',
            custom_field_values: { '6dvNaf7VhkQ9snc5vnjJ': 'outcome' },
            customFields: [{ field: 'custom_field_values.6dvNaf7VhkQ9snc5vnjJ', customFieldEnabled: true }],
          },
        },
        callData: { fields: { other: 'x' } },
      });
      expect(ghl.body).toMatchObject({ success: false, metadata: { errorType: 'custom_field_missing' }, error: expect.stringContaining('"outcome"') });
      const airtable = await run({
        automationType: 'airtable',
        nodeParams: {
          action: 'create_record',
          params: { baseId: 'appX1', table: 'Leads', fields: { Budget: 'budget' }, customFields: [{ field: 'fields.Budget', customFieldEnabled: true }] },
        },
        callData: { fields: { other: 1 } },
      });
      expect(airtable.body).toMatchObject({ success: false, metadata: { errorType: 'custom_field_missing' }, error: expect.stringContaining('"budget"') });
    });

    it('valid params in a workspace without the connection tell the user to connect', async () => {
      const bare = await app.newWorkspace({ superuser: true });
      const res = await run(
        { automationType: 'zendesk', nodeParams: { action: 'create_ticket', params: { subject: 'Callback', comment: 'Call me back' } } },
        bare.superuserKey,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, error: expect.stringMatching(/Zendesk is not connected.*connect it/) });
    });
  });

  describe('vendor failures: success:false with the vendor’s words, each request sent once', () => {
    it('a 200 carrying an error (Postmark ErrorCode)', async () => {
      fake.answerInOrder({ status: 200, body: { ErrorCode: 406, Message: 'Inactive recipient' } });
      const res = await run({
        automationType: 'postmark',
        nodeParams: { action: 'send_email', params: { from: 'a@example.org', to: ['b@example.com'], subject: 's', text: 't' } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: false,
        data: null,
        error: expect.stringContaining('Inactive recipient'),
        metadata: { errorType: 'vendor_error_in_body', attempts: 1 },
      });
      expect(fake.received('POST', '/email')).toHaveLength(1);
    });

    it('a 422 (ActiveCampaign on the connection’s account host)', async () => {
      fake.answerInOrder({ status: 422, body: { errors: [{ title: 'Email address is not valid.', code: 'email_invalid' }] } });
      const res = await run({ automationType: 'activecampaign', nodeParams: { action: 'sync_contact', params: { email: 'ada@example.com' } } });
      expect(res.body).toMatchObject({
        success: false,
        data: null,
        error: expect.stringContaining('Email address is not valid.'),
        metadata: { errorType: 'vendor_rejected', attempts: 1 },
      });
      expect(fake.received('POST', '/api/3/contact/sync')).toHaveLength(1);
    });

    it('a 400 with field errors (Jira)', async () => {
      fake.answerInOrder({ status: 400, body: { errorMessages: [], errors: { issuetype: 'Specify a valid issue type' } } });
      const res = await run({
        automationType: 'jira',
        nodeParams: { action: 'create_issue', params: { projectKey: 'SUP', summary: 'Caller reports outage', issueType: 'Nope' } },
      });
      expect(res.body).toMatchObject({ success: false, data: null, metadata: { errorType: 'vendor_rejected', attempts: 1 } });
      expect(res.body.error).toContain('Specify a valid issue type');
      expect(fake.requests).toHaveLength(1);
    });

    it('a 401 asks the user to reconnect (Zoho CRM)', async () => {
      fake.answerInOrder({ status: 401, body: { code: 'INVALID_TOKEN', details: {}, message: 'invalid oauth token', status: 'error' } });
      const res = await run({ automationType: 'zoho_crm', nodeParams: { action: 'create_lead', params: { Last_Name: 'Lovelace' } } });
      expect(res.body).toMatchObject({
        success: false,
        error: expect.stringMatching(/invalid oauth token.*reconnect/),
        metadata: { errorType: 'vendor_auth_failed', attempts: 1 },
      });
      expect(fake.received('POST', '/crm/v8/Leads')).toHaveLength(1);
    });
  });
});
