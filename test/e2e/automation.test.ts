import { randomUUID } from 'node:crypto';
import { createConnection } from '../../src/connections/store';
import { createApiKey } from '../../src/workspaces/db/api-keys';
import { createUser, setAllowedIntegrations } from '../../src/workspaces/db/users';
import { vendorSpec } from '../helpers/vendor-spec';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(120_000);

const EXECUTE = '/api/automation/execute';

describe('POST /api/automation/execute (superuser mode)', () => {
  let app: TestApp;
  let fake: VendorFake;
  let ws: { workspaceId: string; apiKey: string; superuserKey: string };
  const run = (body: unknown, headers: Record<string, string> = {}) =>
    app.request('POST', EXECUTE, { body, headers: { 'x-key': ws.superuserKey, ...headers } });
  const proxy = (path: string, extra: Record<string, unknown> = {}) => ({
    automationType: 'proxy',
    nodeId: 'node-1',
    nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}${path}`, requestBodyJson: { hello: 'world' }, ...extra } },
  });

  beforeAll(async () => {
    fake = await startVendorFake();
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: `slack=${fake.url}/api` } });
    ws = await app.newWorkspace({ superuser: true });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });
  beforeEach(() => fake.clear());

  it('runs the action as a durable, findable run and answers the 4.6 envelope', async () => {
    fake.on('POST', '/ok', { status: 201, body: { id: 'x1' } });
    const res = await run(proxy('/ok'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nodeId: 'node-1', automationType: 'proxy', success: true, error: null, data: { status: 201, body: { id: 'x1' } } });
    expect(res.body.metadata).toMatchObject({
      action: 'request',
      attempts: 1,
      runAttempts: 1,
      superuser: true,
      workflowId: `automation:${res.body.requestId}`,
    });
    expect(typeof res.body.duration).toBe('number');
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(fake.received('POST', '/ok')).toHaveLength(1);

    const stored = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': ws.superuserKey } });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      requestId: res.body.requestId,
      status: 'succeeded',
      success: true,
      attempts: 1,
      superuser: true,
      workflowId: `automation:${res.body.requestId}`,
    });
    // Redacted: the URL and body the caller sent are not kept.
    expect(JSON.stringify(stored.body.request)).not.toContain('world');
    expect(JSON.stringify(stored.body.request)).not.toContain('127.0.0.1');

    // The answer comes once the outcome is recorded (final); the workflow ends with it a moment later.
    const handle = app.temporal.client.workflow.getHandle(`automation:${res.body.requestId}`);
    await expect(handle.result()).resolves.toMatchObject({ success: true, runAttempts: 1 });
    const desc = await handle.describe();
    expect(desc.status.name).toBe('COMPLETED');
    const attrs = desc.typedSearchAttributes;
    const get = (name: string) => attrs.getAll().find((p) => p.key.name === name)?.value;
    expect(get('WorkspaceId')).toBe(ws.workspaceId);
    expect(get('AutomationType')).toBe('proxy');
    expect(get('Outcome')).toBe('succeeded');
  });

  it("runs with the workspace's ordinary API key in x-key, as the seed's section 5 says", async () => {
    fake.on('POST', '/ok', { status: 200, body: { id: 'x2' } });
    const res = await run(proxy('/ok'), { 'x-key': ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { status: 200, body: { id: 'x2' } } });
    expect(res.body.metadata).toMatchObject({ superuser: true });
    expect(fake.received('POST', '/ok')).toHaveLength(1);
  });

  it('refuses missing, bad and integrations-less keys in the envelope, running nothing', async () => {
    const none = await app.request('POST', EXECUTE, { body: proxy('/ok') });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({
      success: false,
      error: expect.stringMatching(/Unauthorized/),
      requestId: expect.any(String),
      timestamp: expect.any(String),
    });
    expect((await run(proxy('/ok'), { 'x-key': 'sk_nope' })).status).toBe(401);
    const restOnly = await createApiKey(app.db, ws.workspaceId, { name: 'rest only', scopes: ['rest'] });
    const scoped = await run(proxy('/ok'), { 'x-key': restOnly.key });
    expect(scoped.status).toBe(403);
    expect(scoped.body).toMatchObject({ success: false, error: expect.stringMatching(/do not include integrations/) });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers a malformed request 400 with the envelope', async () => {
    for (const body of [
      {},
      { automationType: 'proxy' },
      { automationType: 'proxy', nodeParams: { params: [] } },
      { automationType: 'proxy', nodeParams: {}, async: true },
      '[1',
    ]) {
      const res = await run(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, requestId: expect.any(String), timestamp: expect.any(String), error: expect.any(String) });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("answers a failing action 200 success:false, with the vendor's reason and no retry on a 4xx", async () => {
    fake.on('POST', '/rejects', { status: 422, body: { message: 'hello is not allowed' } });
    const res = await run(proxy('/rejects'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: false,
      data: null,
      error: expect.stringContaining('hello is not allowed'),
      metadata: { errorType: 'vendor_rejected', attempts: 1 },
    });
    expect(fake.received('POST', '/rejects')).toHaveLength(1);
    const stored = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': ws.superuserKey } });
    expect(stored.body).toMatchObject({ status: 'failed', errorType: 'vendor_rejected' });
  });

  it('retries 429 and 5xx honouring Retry-After, counting the attempts', async () => {
    fake.on('POST', '/flaky', { status: 429, headers: { 'retry-after': '0' }, body: {} }, { status: 503, body: 'down' }, { status: 200, body: { fine: true } });
    const res = await run(proxy('/flaky'));
    expect(res.body).toMatchObject({ success: true, metadata: { attempts: 3 } });
    expect(fake.received('POST', '/flaky')).toHaveLength(3);
  });

  it('runs a POST again after a try that proves it sent nothing (503s), as the run records', async () => {
    fake.on(
      'POST',
      '/unavailable',
      { status: 503, body: 'down' },
      { status: 503, body: 'down' },
      { status: 503, body: 'down' },
      { status: 200, body: { fine: true } },
    );
    const res = await run(proxy('/unavailable'));
    expect(res.body).toMatchObject({ success: true, data: { body: { fine: true } }, metadata: { attempts: 1, runAttempts: 2 } });
    expect(fake.received('POST', '/unavailable')).toHaveLength(4);
    const row = await app.db.one<{ run_attempts: number; unsent_tries: number }>('SELECT run_attempts, unsent_tries FROM automation_runs WHERE id = $1', [
      res.body.requestId,
    ]);
    expect(row).toEqual({ run_attempts: 2, unsent_tries: 1 });
  });

  it('reports unknown integrations and actions, invalid params and missing custom fields without sending', async () => {
    const unknown = await run({ automationType: 'nope', nodeParams: { params: {} } });
    expect(unknown.body).toMatchObject({ success: false, metadata: { errorType: 'unknown_integration' }, error: expect.stringContaining('slack') });
    const invalid = await run({ automationType: 'slack', nodeParams: { action: 'post_message', params: { text: 5 } } });
    expect(invalid.body).toMatchObject({
      success: false,
      metadata: { errorType: 'invalid_params', problems: expect.arrayContaining([expect.stringMatching(/^channel:/), expect.stringMatching(/^text:/)]) },
    });
    // Worded as the REST routes word theirs: a missing field is "required", a wrong type says what was expected.
    expect(invalid.body.metadata.problems).toEqual(expect.arrayContaining(['channel: required', 'text: expected string, received number']));
    const missing = await run({
      ...proxy('/ok', { apiURL: 'target_url', customFields: [{ field: 'apiURL', customFieldEnabled: true }] }),
      callData: { fields: { other: 'x' } },
    });
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ success: false, metadata: { errorType: 'custom_field_missing' }, error: expect.stringContaining('"target_url"') });
    expect(fake.requests).toHaveLength(0);
  });

  it('resolves custom fields from callData.fields', async () => {
    fake.on('POST', '/cf', { status: 200, body: {} });
    const res = await run({
      ...proxy('/ok', { apiURL: 'target_url', customFields: [{ field: 'apiURL', customFieldEnabled: true }] }),
      callData: { fields: { target_url: `${fake.url}/cf` } },
    });
    expect(res.body.success).toBe(true);
    expect(fake.received('POST', '/cf')).toHaveLength(1);
  });

  it('replays an Idempotency-Key without running again', async () => {
    fake.on('POST', '/once', { status: 200, body: { n: 1 } });
    const headers = { 'idempotency-key': `auto-${Date.now()}` };
    const first = await run(proxy('/once'), headers);
    const again = await run(proxy('/once'), headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(fake.received('POST', '/once')).toHaveLength(1);
    const other = await run(proxy('/other'), headers);
    expect(other.status).toBe(409);
    expect(other.body.success).toBe(false);
  });

  it('async: answers at once, then POSTs the signed envelope to the callback, retrying a failed delivery', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    try {
      receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey })).body.webhook_secret;
      receiver.script('/cb', [500, 200]);
      fake.on('POST', '/slow', { status: 200, body: { done: true } });
      const res = await run({ ...proxy('/slow'), async: true, callbackUrl: `${url}/cb` });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ requestId: expect.any(String), success: true, metadata: { async: true } });
      const delivered = await eventually(async () => receiver.on('/cb').find((d) => d.status === 200), 60_000, 'the callback');
      expect(receiver.on('/cb').map((d) => d.status)).toEqual([500, 200]);
      expect(delivered.verified).toBe(true);
      expect(JSON.parse(delivered.body)).toMatchObject({
        requestId: res.body.requestId,
        success: true,
        data: { status: 200, body: { done: true } },
        metadata: { async: true, attempts: 1 },
      });
      expect(new Set(receiver.on('/cb').map((d) => d.eventId)).size).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('writes a synchronous run once, at its end; an async run shows running while it runs', async () => {
    const own = await app.newWorkspace({ superuser: true });
    const rowsNow = async () => app.db.query<{ status: string }>('SELECT status FROM automation_runs WHERE workspace_id = $1', [own.workspaceId]);
    const seen: string[][] = [];
    fake.on('POST', '/watched', async () => {
      seen.push((await rowsNow()).map((r) => r.status).sort());
      return { status: 200, body: { ok: true } };
    });
    const body = { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/watched` } } };
    const sync = await app.request('POST', EXECUTE, { body, headers: { 'x-key': own.superuserKey } });
    expect(sync.body).toMatchObject({ success: true, metadata: { runAttempts: 1 } });
    expect((await rowsNow()).map((r) => r.status)).toEqual(['succeeded']);
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    try {
      const async = await app.request('POST', EXECUTE, { body: { ...body, async: true, callbackUrl: `${url}/cb` }, headers: { 'x-key': own.superuserKey } });
      expect(async.body).toMatchObject({ success: true, metadata: { async: true } });
      await eventually(async () => (await rowsNow()).filter((r) => r.status === 'succeeded').length === 2, 60_000, 'the async run to end');
    } finally {
      await receiver.close();
    }
    // During the vendor call: no row for the synchronous run; the async run's row, running.
    expect(seen).toEqual([[], ['running', 'succeeded']]);
  });

  it("answers 404 for another workspace's run and an unknown id", async () => {
    fake.on('POST', '/ok', { status: 200, body: {} });
    const res = await run(proxy('/ok'));
    const other = await app.newWorkspace({ superuser: true });
    const theirs = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': other.superuserKey } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.success).toBe(false);
    expect((await app.request('GET', '/api/automation/runs/not-a-uuid', { headers: { 'x-key': ws.superuserKey } })).status).toBe(404);
  });

  it("uses the workspace's connection in superuser mode (slack), the request as Slack describes it", async () => {
    await createConnection(app.db, {
      workspaceId: ws.workspaceId,
      userId: null,
      integration: 'slack',
      kind: 'api_key',
      secrets: { api_key: 'xoxb-workspace' },
    });
    fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: true, channel: 'C1', ts: '1.5' } });
    const res = await run({ automationType: 'slack', nodeParams: { action: 'post_message', params: { channel: 'C1', text: 'done' } } });
    expect(res.body).toMatchObject({ success: true, data: { channel: 'C1', ts: '1.5' } });
    const [req] = fake.received('POST', '/api/chat.postMessage');
    expect(req!.headers.authorization).toBe('Bearer xoxb-workspace');
    expect(vendorSpec('slack.json', { lenient: true })(req!)).toEqual([]);
  });

  it('refreshes an expired OAuth token first, and a refused refresh asks to reconnect', async () => {
    fake.on('POST', '/oauth/token', { status: 200, body: { access_token: 'fresh-token', expires_in: 3600, token_type: 'bearer' } });
    fake.on('POST', '/crm/v3/objects/contacts', { status: 201, body: { id: '9', properties: {} } });
    const settings = { token_url: `${fake.url}/oauth/token`, base_url: fake.url };
    const expired = new Date(Date.now() - 60_000);
    await createConnection(app.db, {
      workspaceId: ws.workspaceId,
      userId: null,
      integration: 'hubspot',
      kind: 'oauth2',
      secrets: { access_token: 'old', refresh_token: 'r1' },
      settings,
      expiresAt: expired,
    });
    const ok = await run({ automationType: 'hubspot', nodeParams: { action: 'create_contact', params: { email: 'ada@example.com' } } });
    expect(ok.body).toMatchObject({ success: true, data: { id: '9' } });
    expect(fake.received('POST', '/oauth/token')).toHaveLength(1);
    expect(fake.received('POST', '/crm/v3/objects/contacts')[0]!.headers.authorization).toBe('Bearer fresh-token');

    fake.on('POST', '/oauth/token', { status: 400, body: { error: 'invalid_grant' } });
    await createConnection(app.db, {
      workspaceId: ws.workspaceId,
      userId: null,
      integration: 'hubspot',
      kind: 'oauth2',
      secrets: { access_token: 'old', refresh_token: 'revoked' },
      settings,
      expiresAt: expired,
    });
    fake.clear();
    const refused = await run({ automationType: 'hubspot', nodeParams: { action: 'create_contact', params: { email: 'ada@example.com' } } });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ success: false, metadata: { errorType: 'reconnect_required' }, error: expect.stringMatching(/reconnect/i) });
    expect(fake.received('POST', '/crm/v3/objects/contacts')).toHaveLength(0);
  });

  it('lists the catalogue with JSON Schemas', async () => {
    const res = await app.request('GET', '/api/automation/integrations', { headers: { 'x-key': ws.superuserKey } });
    expect(res.status).toBe(200);
    const keys = res.body.integrations.map((i: { key: string }) => i.key);
    expect(keys).toEqual(expect.arrayContaining(['proxy', 'slack', 'hubspot', 'google_calendar']));
    expect((await app.request('GET', '/api/automation/integrations')).status).toBe(401);
  });
});

describe('POST /api/automation/execute (user JWT mode)', () => {
  let app: TestApp;
  let fake: VendorFake;

  beforeAll(async () => {
    fake = await startVendorFake();
    fake.on('POST', '/ok', { status: 200, body: { ok: true } });
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });

  /** A user of a new workspace with a JWT from the login route. */
  async function user(allowed: string[] | null = null) {
    const ws = await app.newWorkspace({ superuser: true });
    const email = `u-${randomUUID()}@example.com`;
    const u = await createUser(app.db, ws.workspaceId, { email, password: 'pw-automation' });
    if (allowed) await setAllowedIntegrations(app.db, ws.workspaceId, u.id, allowed);
    const login = await app.request('POST', '/api/auth/login', { body: { email, password: 'pw-automation' } });
    expect(login.status).toBe(200);
    return { ...ws, userId: u.id, token: login.body.token as string };
  }
  const body = (extra: Record<string, unknown> = {}) => ({
    automationType: 'proxy',
    nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/ok` } },
    ...extra,
  });
  const asUser = (token: string, b: unknown) => app.request('POST', EXECUTE, { key: token, body: b });

  it("runs as the token's user; the user sees their runs, another user of the workspace does not", async () => {
    const u = await user();
    const res = await asUser(u.token, body({ userId: u.userId }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, metadata: { superuser: false } });
    expect((await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { key: u.token })).body).toMatchObject({
      status: 'succeeded',
      superuser: false,
    });
    const email = `other-${randomUUID()}@example.com`;
    await createUser(app.db, u.workspaceId, { email, password: 'pw-other' });
    const other = (await app.request('POST', '/api/auth/login', { body: { email, password: 'pw-other' } })).body.token as string;
    expect((await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { key: other })).status).toBe(404);
    // The workspace's superuser key sees every run of the workspace.
    expect((await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': u.superuserKey } })).status).toBe(200);
  });

  it("keeps each caller's Idempotency-Key its own: another user, or the superuser key, with the same key and body runs anew", async () => {
    fake.clear();
    const u = await user();
    const email = `second-${randomUUID()}@example.com`;
    await createUser(app.db, u.workspaceId, { email, password: 'pw-second' });
    const second = (await app.request('POST', '/api/auth/login', { body: { email, password: 'pw-second' } })).body.token as string;
    const headers = { 'idempotency-key': `shared-${randomUUID()}` };
    const first = await app.request('POST', EXECUTE, { key: u.token, body: body(), headers });
    const replay = await app.request('POST', EXECUTE, { key: u.token, body: body(), headers });
    expect([replay.headers.get('idempotent-replayed'), replay.body.requestId]).toEqual(['true', first.body.requestId]);
    const other = await app.request('POST', EXECUTE, { key: second, body: body(), headers });
    const admin = await app.request('POST', EXECUTE, { body: body(), headers: { ...headers, 'x-key': u.superuserKey } });
    for (const res of [other, admin]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(res.body).toMatchObject({ success: true });
    }
    expect(new Set([first.body.requestId, other.body.requestId, admin.body.requestId]).size).toBe(3);
    expect(fake.received('POST', '/ok')).toHaveLength(3);
  });

  it("refuses another user's userId and integrations the user is not allowed (403, nothing sent)", async () => {
    fake.clear();
    const u = await user(['slack']);
    const notAllowed = await asUser(u.token, body());
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body).toMatchObject({ success: false, error: expect.stringContaining('proxy') });
    const free = await user();
    const otherUser = await asUser(free.token, body({ userId: randomUUID() }));
    expect(otherUser.status).toBe(403);
    expect(otherUser.body.success).toBe(false);
    expect((await asUser('not.a.jwt', body())).status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it("uses the user's own connection, not the workspace's", async () => {
    const u = await user();
    await createConnection(app.db, { workspaceId: u.workspaceId, userId: null, integration: 'slack', kind: 'api_key', secrets: { api_key: 'xoxb-workspace' } });
    await createConnection(app.db, {
      workspaceId: u.workspaceId,
      userId: u.userId,
      integration: 'slack',
      kind: 'api_key',
      secrets: { api_key: 'xoxb-user' },
      settings: { base_url: `${fake.url}/api` },
    });
    fake.on('POST', '/api/chat.postMessage', { status: 200, body: { ok: true, channel: 'C1', ts: '2.5' } });
    fake.clear();
    const res = await asUser(u.token, { automationType: 'slack', nodeParams: { action: 'post_message', params: { channel: 'C1', text: 'hi' } } });
    expect(res.body).toMatchObject({ success: true, metadata: { superuser: false } });
    expect(fake.received('POST', '/api/chat.postMessage')[0]!.headers.authorization).toBe('Bearer xoxb-user');
  });

  it("uses the user's own connection: a user without one is told to connect", async () => {
    const u = await user();
    const res = await asUser(u.token, { automationType: 'slack', nodeParams: { action: 'post_message', params: { channel: 'C1', text: 'hi' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, metadata: { errorType: 'not_connected' }, error: expect.stringContaining('this user') });
  });
});
