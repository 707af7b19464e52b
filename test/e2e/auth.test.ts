import { createApiKey, revokeApiKey } from '../../src/workspaces/db/api-keys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { UUID_PATTERN } from '../../src/core/ids';
import { eventually } from '../helpers/webhook-receiver';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const failed = (message: string | RegExp) => ({ status: 'failed', message: expect.stringMatching(message) });

describe('REST API-key auth', () => {
  it('accepts a live key and scopes the request to its workspace', async () => {
    const { workspaceId, apiKey } = await app.newWorkspace();
    const res = await app.request('GET', '/v1/me', { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      workspace_id: workspaceId,
      workspace_name: expect.any(String),
      api_key_prefix: apiKey.slice(0, 12),
    });
  });

  it.each([
    ['no header', {}, /missing Authorization/],
    ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }, /Bearer/],
    ['empty bearer', { authorization: 'Bearer ' }, /Bearer/],
    ['unknown key', { authorization: 'Bearer sbk_nope' }, /invalid or revoked/],
    ['key with junk after it', { authorization: 'Bearer a b' }, /Bearer/],
  ])('answers 401 in the error shape: %s', async (_name, headers, message) => {
    const res = await app.request('GET', '/v1/me', { headers: headers as Record<string, string> });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual(failed(message));
  });

  it('refuses a key whose scopes leave out rest with 403, on /v1 and the no-code routes', async () => {
    const { workspaceId } = await app.newWorkspace();
    const { key } = await createApiKey(app.db, workspaceId, { name: 'integrations only', scopes: ['integrations'] });
    const rest = await app.request('GET', '/v1/me', { key });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual(failed(/scopes \(integrations\) do not include rest/));
    const nocode = await app.request('POST', '/api/make-com/automation/options/workspaces', { key, body: {} });
    expect(nocode.status).toBe(403);
    expect(nocode.body).toEqual(failed(/do not include rest/));
  });

  it('stores only a hash and a readable prefix, never the key', async () => {
    const { workspaceId, apiKey } = await app.newWorkspace();
    const rows = await app.db.query('SELECT * FROM api_keys WHERE workspace_id = $1', [workspaceId]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(apiKey);
    expect(JSON.stringify(rows)).not.toContain(apiKey.slice(12));
    expect(rows[0]!.prefix).toBe(apiKey.slice(0, 12));
    expect(rows[0]!.last_used_at).toBeNull();
    expect((await app.request('GET', '/v1/me', { key: apiKey })).status).toBe(200);
    // Written after the answer, off the request's path: wait for it (no time budget is asserted).
    const used = await eventually(
      async () => {
        const [row] = await app.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE workspace_id = $1', [workspaceId]);
        return row!.last_used_at ?? undefined;
      },
      30_000,
      'last_used_at',
    );
    expect(used).toBeInstanceOf(Date);
  });

  it('rejects a key once it is revoked, even right after it was used (cached)', async () => {
    const { workspaceId } = await app.newWorkspace();
    const { key, row } = await createApiKey(app.db, workspaceId, { name: 'to revoke' });
    expect((await app.request('GET', '/v1/me', { key })).status).toBe(200);
    expect(await revokeApiKey(app.db, workspaceId, row.prefix)).toBe(true);
    // Revocation reaches the api through NOTIFY, a moment later (no time budget is asserted).
    const status = await eventually(
      async () => {
        const s = (await app.request('GET', '/v1/me', { key })).status;
        return s !== 200 && s;
      },
      30_000,
      'the revoked key to be refused',
    );
    expect(status).toBe(401);
    expect(await revokeApiKey(app.db, workspaceId, row.prefix)).toBe(false);
  });

  it("cannot revoke another workspace's key", async () => {
    const a = await app.newWorkspace();
    const b = await app.newWorkspace();
    const [row] = await app.db.query<{ id: string }>('SELECT id FROM api_keys WHERE workspace_id = $1', [a.workspaceId]);
    expect(await revokeApiKey(app.db, b.workspaceId, row!.id)).toBe(false);
    expect((await app.request('GET', '/v1/me', { key: a.apiKey })).status).toBe(200);
  });
});

describe('errors and documents', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['POST', '/nowhere'],
      ['DELETE', '/'],
    ] as const) {
      const res = await app.request(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(failed(/No route/));
    }
  });

  it('serves health, readiness and Prometheus metrics', async () => {
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    const ready = await app.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: 'ok', temporal: 'ok' });
    const metrics = await app.request('GET', '/metrics');
    expect(metrics.body).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="200"\} 1/);
    expect(metrics.body).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/readyz",status="200"\}/);
  });

  it('serves an OpenAPI 3.1 document generated from the routes', async () => {
    const res = await app.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['apiKey', 'superuserKey', 'userJwt']);
    expect(res.body.paths['/v1/me'].get.security).toEqual([{ apiKey: [] }]);
    expect(res.body.paths['/v1/me'].get.responses['401']).toBeDefined();
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await app.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await app.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(UUID_PATTERN);
  });
});
