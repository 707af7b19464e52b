import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const SECRET = /^whsec_[A-Za-z0-9_-]{32}$/;
const get = (key: string) => app.request('GET', '/v1/journeys/webhook-secret', { key });
const rotate = (key: string, body?: unknown) => app.request('POST', '/v1/journeys/webhook-secret/rotate', { key, body });

describe('the journey webhook secret', () => {
  it('is read and rotated with superuser keys only: an ordinary key gets 403 and changes nothing', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    const secret = (await get(ws.superuserKey)).body.webhook_secret;
    expect(secret).toMatch(SECRET);
    for (const res of [await get(ws.apiKey), await rotate(ws.apiKey), await rotate(ws.apiKey, { grace_period_seconds: 60 })]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'failed', message: expect.stringMatching(/superuser API key/) });
    }
    expect((await get(ws.superuserKey)).body).toEqual({
      status: 'success',
      webhook_secret: secret,
      previous_webhook_secret: null,
      previous_webhook_secret_expires_at: null,
    });
  });

  it('rotates: a new secret signs, the previous one stays in use for the grace period (24 h by default)', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    const original = (await get(ws.superuserKey)).body.webhook_secret;
    const before = Date.now();
    const res = await rotate(ws.superuserKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      webhook_secret: expect.stringMatching(SECRET),
      previous_webhook_secret: original,
      previous_webhook_secret_expires_at: expect.any(String),
    });
    expect(res.body.webhook_secret).not.toBe(original);
    const expires = Date.parse(res.body.previous_webhook_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000 + 5_000);
    expect((await get(ws.superuserKey)).body).toEqual(res.body);

    // Rotating again ends the older secret's grace: the one just replaced is now the previous one.
    const again = (await rotate(ws.superuserKey, { grace_period_seconds: 60 })).body;
    expect(again.previous_webhook_secret).toBe(res.body.webhook_secret);
    expect(Date.parse(again.previous_webhook_secret_expires_at)).toBeLessThanOrEqual(Date.now() + 65_000);
  });

  it('drops the previous secret once its grace period is over', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    await get(ws.superuserKey);
    const rotated = (await rotate(ws.superuserKey, { grace_period_seconds: 3600 })).body;
    await app.db.query(`UPDATE workspaces SET previous_webhook_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [ws.workspaceId]);
    expect((await get(ws.superuserKey)).body).toEqual({
      status: 'success',
      webhook_secret: rotated.webhook_secret,
      previous_webhook_secret: null,
      previous_webhook_secret_expires_at: null,
    });
  });

  it.each([{ grace_period_seconds: -1 }, { grace_period_seconds: 604_801 }, { grace_period_seconds: 1.5 }, { grace_period_seconds: '60' }, [1], null])(
    'refuses the rotation body %j with 400 and changes nothing',
    async (body) => {
      const ws = await app.newWorkspace({ superuser: true });
      const secret = (await get(ws.superuserKey)).body.webhook_secret;
      const res = await rotate(ws.superuserKey, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'failed', message: expect.stringMatching(/^(grace_period_seconds|body):/) });
      expect((await get(ws.superuserKey)).body.webhook_secret).toBe(secret);
    },
  );

  it('is documented with its 403 in the OpenAPI document', async () => {
    const { paths } = (await app.request('GET', '/v1/openapi.json')).body;
    for (const op of [paths['/v1/journeys/webhook-secret'].get, paths['/v1/journeys/webhook-secret/rotate'].post]) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
  });

  it('keeps each workspace’s secret to itself', async () => {
    const [a, b] = [await app.newWorkspace({ superuser: true }), await app.newWorkspace({ superuser: true })];
    const secretA = (await get(a.superuserKey)).body.webhook_secret;
    await rotate(b.superuserKey);
    expect((await get(a.superuserKey)).body).toMatchObject({ webhook_secret: secretA, previous_webhook_secret: null });
  });
});
