import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(120_000);

const C = ['acuity', 'airtable', 'asana', 'calcom', 'calendly', 'clickup', 'google_sheets', 'jira', 'monday', 'notion', 'trello', 'zoom'];

/** Catalogue C through the endpoint: what is refused before anything is sent, and what the catalogue publishes. */
describe('catalogue C through /api/automation', () => {
  let app: TestApp;
  let fake: VendorFake;
  let su: { 'x-key': string };
  const run = (body: unknown) => app.request('POST', '/api/automation/execute', { body, headers: su });

  beforeAll(async () => {
    fake = await startVendorFake();
    const bases = C.map((k) => `${k}=${fake.url}`).join(',');
    app = await startTestApp({ config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: bases } });
    su = { 'x-key': (await app.newWorkspace({ superuser: true })).superuserKey };
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
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
