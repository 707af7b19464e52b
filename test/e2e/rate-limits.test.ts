import { randomBytes, randomInt } from 'node:crypto';
import { createUser } from '../../src/workspaces/db/users';
import { hashKey } from '../../src/workspaces/db/api-keys';
import { startTestApp, type HttpResult, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

const expectRateLimited = (res: HttpResult, windowSeconds: number) => {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ status: 'failed', message: expect.stringMatching(/^Too many requests/) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
};

/** The shared count of an API key's bucket in the database (what every api process sees). */
const sharedHits = async (app: TestApp, apiKey: string) => {
  const [row] = await app.db.query<{ hits: number }>(`SELECT r.hits FROM rate_limits r JOIN api_keys k ON r.bucket = 'key:' || k.id WHERE k.key_hash = $1`, [
    hashKey(apiKey),
  ]);
  return row?.hits ?? 0;
};

describe('rate limits', () => {
  describe('per API key', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ config: { RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_WINDOW_SECONDS: '3600' } });
    });
    afterAll(() => app.close());

    it('answers 429 with Retry-After once a key is over its limit, while another key goes on', async () => {
      const flooder = await app.newWorkspace();
      const other = await app.newWorkspace();
      const results = await Promise.all(Array.from({ length: 12 }, () => app.request('GET', '/v1/lead/get?phone=2125550100', { key: flooder.apiKey })));
      expect(results.filter((r) => r.status === 404)).toHaveLength(5); // no such lead: served, and counted
      for (const res of results.filter((r) => r.status !== 404)) expectRateLimited(res, 3600);
      expect((await app.request('GET', '/v1/me', { key: other.apiKey })).status).toBe(200);
      expectRateLimited(await app.request('GET', '/v1/me', { key: flooder.apiKey }), 3600);
      expect((await app.request('GET', '/healthz')).status).toBe(200);
    });

    it('are documented: every route lists its 429 and Retry-After', async () => {
      const { paths } = (await app.request('GET', '/v1/openapi.json')).body;
      const operations = Object.values(paths).flatMap((p) => Object.values(p as Record<string, { responses: Record<string, { headers?: object }> }>));
      expect(operations.length).toBeGreaterThan(10);
      for (const op of operations) expect(op.responses['429']?.headers).toHaveProperty('Retry-After');
    });
  });

  describe('per client address', () => {
    let app: TestApp;
    beforeAll(async () => {
      // Behind a proxy, the client address is the first X-Forwarded-For entry: each test run gets addresses of its own
      // (every app on the test database shares the counters, so 127.0.0.1's is busy with the other test files' requests).
      app = await startTestApp({ config: { RATE_LIMIT_PER_ADDRESS: '4', RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY: 'true' } });
    });
    afterAll(() => app.close());
    const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

    it('counts every request from one address, whatever the key (or none), but not the probes', async () => {
      const [a, b] = [await app.newWorkspace(), await app.newWorkspace()];
      const from = (address: string) => ({ 'x-forwarded-for': `${address}, 127.0.0.1` });
      const client = someAddress();
      const other = someAddress();
      expect((await app.request('GET', '/v1/me', { key: a.apiKey, headers: from(client) })).status).toBe(200);
      expect((await app.request('GET', '/v1/me', { key: b.apiKey, headers: from(client) })).status).toBe(200);
      expect((await app.request('GET', '/v1/me', { headers: from(client) })).status).toBe(401);
      expect((await app.request('GET', '/v1/openapi.json', { headers: from(client) })).status).toBe(200);
      expectRateLimited(await app.request('GET', '/v1/me', { key: b.apiKey, headers: from(client) }), 3600);
      expectRateLimited(await app.request('GET', '/v1/openapi.json', { headers: from(client) }), 3600);
      for (const path of ['/healthz', '/readyz', '/metrics']) expect((await app.request('GET', path, { headers: from(client) })).status).toBe(200);
      expect((await app.request('GET', '/v1/me', { key: b.apiKey, headers: from(other) })).status).toBe(200);
    });

    it('refuses the automation routes in their own envelope (ST108), counted before auth like every route', async () => {
      const from = { 'x-forwarded-for': `${someAddress()}, 127.0.0.1` };
      const execute = () =>
        app.request('POST', '/api/automation/execute', {
          headers: { ...from, 'x-key': 'sbk_nope' },
          body: { automationType: 'proxy', nodeParams: { params: {} } },
        });
      for (let i = 0; i < 4; i++) expect((await execute()).status).toBe(401);
      const limited = await execute();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.body).toMatchObject({
        success: false,
        data: null,
        error: expect.stringMatching(/^Too many requests: .* per client address/),
        requestId: expect.any(String),
      });
      const listed = await app.request('GET', '/api/automation/integrations', { headers: from });
      expect([listed.status, listed.body.success]).toEqual([429, false]);
    });
  });

  // Issue 38 (L4): a user JWT sets no API key; its user is counted against the same limit.
  describe('per user (JWT)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ config: { RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_WINDOW_SECONDS: '3600', JWT_SECRET: randomBytes(32).toString('hex') } });
    });
    afterAll(() => app.close());

    const userJwt = async (workspaceId: string) => {
      const email = `u${randomBytes(4).toString('hex')}@example.com`;
      await createUser(app.db, workspaceId, { email, password: 'pw-123456' });
      return (await app.request('POST', '/api/auth/login', { body: { email, password: 'pw-123456' } })).body.token as string;
    };

    it('counts a user JWT per user on key-or-user and automation routes; another user and the workspace key go on', async () => {
      const ws = await app.newWorkspace();
      const [flooder, other] = [await userJwt(ws.workspaceId), await userJwt(ws.workspaceId)];
      const results = await Promise.all(Array.from({ length: 9 }, () => app.request('GET', '/v1/connections', { key: flooder })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      for (const res of results.filter((r) => r.status !== 200)) {
        expectRateLimited(res, 3600);
        expect(res.body.message).toMatch(/per user;/);
      }
      // The same user's count on the automation endpoint (its own envelope).
      expect((await app.request('GET', '/api/automation/integrations', { key: flooder })).status).toBe(429);
      expect((await app.request('GET', '/v1/connections', { key: other })).status).toBe(200);
      expect((await app.request('GET', '/v1/connections', { key: ws.apiKey })).status).toBe(200);
    });
  });

  describe('two api processes on one database', () => {
    let one: TestApp;
    let two: TestApp;
    beforeAll(async () => {
      const config = { RATE_LIMIT_PER_KEY: '6', RATE_LIMIT_WINDOW_SECONDS: '3600', RATE_LIMIT_SYNC_MS: '20' };
      [one, two] = await Promise.all([startTestApp({ config }), startTestApp({ config })]);
    });
    afterAll(() => Promise.all([one?.close(), two?.close()]));

    it('share one count per key', async () => {
      const ws = await one.newWorkspace();
      for (let i = 0; i < 6; i++) expect((await one.request('GET', '/v1/me', { key: ws.apiKey })).status).toBe(200);
      await eventually(async () => (await sharedHits(one, ws.apiKey)) === 6, 10_000, 'the first process to report 6 hits');
      // The second process has not seen this key yet: it admits what it counts until its next report (one sync
      // interval), then knows the shared total and refuses, as the first one does.
      expect((await two.request('GET', '/v1/me', { key: ws.apiKey })).status).toBe(200);
      await eventually(async () => (await sharedHits(one, ws.apiKey)) === 7, 10_000, 'the second process to report its hit');
      expectRateLimited(await two.request('GET', '/v1/me', { key: ws.apiKey }), 3600);
      expectRateLimited(await one.request('GET', '/v1/me', { key: ws.apiKey }), 3600);
    });
  });
});
