import { createConnection } from '../../src/connections/store';
import { graphqlSpec } from '../helpers/graphql-spec';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(120_000);

const C = ['acuity', 'airtable', 'asana', 'calcom', 'calendly', 'clickup', 'google_sheets', 'jira', 'monday', 'notion', 'trello', 'zoom'];

/** Catalogue C through the endpoint: runs with the workspace's stored connection, refusals, and what the catalogue publishes. */
describe('catalogue C through /api/automation', () => {
  let app: TestApp;
  let fake: VendorFake;
  let su: { 'x-key': string };
  let workspaceId: string;
  const run = (body: unknown) => app.request('POST', '/api/automation/execute', { body, headers: su });

  beforeAll(async () => {
    fake = await startVendorFake();
    const bases = C.map((k) => `${k}=${fake.url}`).join(',');
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: bases } });
    const ws = await app.newWorkspace({ superuser: true });
    su = { 'x-key': ws.superuserKey };
    workspaceId = ws.workspaceId;
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });

  beforeEach(() => fake.clear());

  test("monday create_item runs with the workspace's connection, the request valid against monday's schema, the token kept out of the run", async () => {
    await createConnection(app.db, { workspaceId, userId: null, integration: 'monday', kind: 'api_key', secrets: { api_key: 'monday-ws-token' } });
    fake.on('POST', '/v2', { body: { data: { create_item: { id: '9001', name: 'Ada Caller', url: 'https://acme.monday.com/boards/1/pulses/9001' } } } });
    const res = await run({
      automationType: 'monday',
      nodeId: 'node-c',
      nodeParams: { action: 'create_item', params: { boardId: '1234567', itemName: 'Ada Caller', columnValues: { text: 'budget' }, customFields: [{ field: 'columnValues.text', customFieldEnabled: true }] } },
      callData: { fields: { budget: '5k' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, automationType: 'monday', data: { id: '9001', name: 'Ada Caller' }, metadata: { action: 'create_item', attempts: 1, superuser: true } });
    const [req] = fake.received('POST', '/v2');
    expect(req!.headers.authorization).toBe('monday-ws-token');
    expect(req!.headers['api-version']).toBe('2026-10');
    expect((req!.body as { variables: unknown }).variables).toEqual({ board: '1234567', name: 'Ada Caller', columns: '{"text":"5k"}' });
    expect(graphqlSpec('monday.json')(req!)).toEqual([]);
    const stored = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: su });
    expect(stored.body).toMatchObject({ status: 'succeeded', success: true });
    expect(JSON.stringify(stored.body)).not.toContain('monday-ws-token');
  });

  test("jira's field errors come back as success:false with Jira's words, sent once", async () => {
    await createConnection(app.db, { workspaceId, userId: null, integration: 'jira', kind: 'basic', secrets: { username: 'ops@example.com', password: 'atl-token' }, settings: { site: 'acme' } });
    fake.on('POST', '/rest/api/3/issue', { status: 400, body: { errorMessages: [], errors: { issuetype: 'Specify a valid issue type' } } });
    const res = await run({ automationType: 'jira', nodeParams: { action: 'create_issue', params: { projectKey: 'SUP', summary: 'Caller reports outage', issueType: 'Nope' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, data: null, metadata: { errorType: 'vendor_rejected', attempts: 1 } });
    expect(res.body.error).toContain('Specify a valid issue type');
    const [req] = fake.received('POST', '/rest/api/3/issue');
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('ops@example.com:atl-token').toString('base64')}`);
    expect(fake.requests).toHaveLength(1);
  });

  test('invalid params answer 200 success:false naming every field path, and nothing reaches the vendor', async () => {
    const res = await run({ automationType: 'calcom', nodeParams: { action: 'create_booking', params: { start: 5, attendee: { name: '', timeZone: 'UTC' } } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, automationType: 'calcom', metadata: { errorType: 'invalid_params' } });
    const problems: string[] = res.body.metadata.problems;
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^start:/), expect.stringMatching(/^attendee\.name:/), expect.stringMatching(/^attendee\.email: email or phoneNumber is required/)]));
    expect(fake.requests).toHaveLength(0);
  });

  test('an unknown action lists the integration’s actions; a custom field missing from callData is named', async () => {
    const unknown = await run({ automationType: 'monday', nodeParams: { action: 'delete_board', params: {} } });
    expect(unknown.body).toMatchObject({ success: false, metadata: { errorType: 'unknown_action' } });
    expect(unknown.body.error).toContain('create_item, change_column_values, add_update');
    const missing = await run({
      automationType: 'airtable',
      nodeParams: { action: 'create_record', params: { baseId: 'appX1', table: 'Leads', fields: { Budget: 'budget' }, customFields: [{ field: 'fields.Budget', customFieldEnabled: true }] } },
      callData: { fields: { other: 1 } },
    });
    expect(missing.body).toMatchObject({ success: false, metadata: { errorType: 'custom_field_missing' }, error: expect.stringContaining('"budget"') });
    expect(fake.requests).toHaveLength(0);
  });

  test('GET /api/automation/integrations publishes every catalogue C action with its JSON Schema', async () => {
    const res = await app.request('GET', '/api/automation/integrations', { headers: su });
    expect(res.status).toBe(200);
    const byKey = new Map<string, { auth: string[]; actions: Array<{ key: string; input: { type: string; properties: Record<string, unknown> } }> }>(
      res.body.integrations.map((i: { key: string }) => [i.key, i]),
    );
    for (const key of C) expect({ key, present: byKey.has(key) }).toEqual({ key, present: true });
    const booking = byKey.get('calcom')!.actions.find((a) => a.key === 'create_booking')!;
    expect(booking.input.type).toBe('object');
    expect(Object.keys(booking.input.properties)).toEqual(expect.arrayContaining(['start', 'eventTypeId', 'attendee']));
    expect(byKey.get('jira')!.auth).toEqual(['basic', 'oauth2']);
  });
});
