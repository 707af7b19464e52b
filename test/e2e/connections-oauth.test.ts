import { randomBytes } from 'node:crypto';
import { deliverConnectionEvent } from '../../workflows/connections/events';
import { refreshExpiringConnections } from '../../workflows/connections/refresh';
import { loadConnection } from '../../src/connections/store';
import { ensureRefreshSchedule, refreshScheduleId } from '../../src/connections/schedule';
import { createUser, setAllowedIntegrations } from '../../src/workspaces/db/users';
import { taskQueue } from '../../src/temporal/task-queues';
import { FakeOAuthServer } from '../helpers/fake-oauth-server';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, verifySignature, WebhookReceiver, type Delivery } from '../helpers/webhook-receiver';

// Issue 27: the authorization-code flow with PKCE against a local authorization server, connections as an API, and
// connection health (a refused refresh breaks a connection and says so; connecting again mends it).
const RETURN = 'https://app.example.com/settings';
const fake = new FakeOAuthServer();
const receiver = new WebhookReceiver();
let app: TestApp;
let receiverUrl: string;

beforeAll(async () => {
  const as = await fake.start();
  receiverUrl = await receiver.start();
  fake.clients.set('gcal-client', { secret: 'gcal-secret', auth: 'client_secret_post' });
  fake.clients.set('sf-client', { secret: 'sf-secret', auth: 'client_secret_post', extra: { instance_url: 'https://acme.my.salesforce.com' } });
  fake.clients.set('zoom-client', { secret: 'zoom secret/+', auth: 'client_secret_basic' });
  fake.clients.set('hub-client', { secret: 'hub-secret', auth: 'client_secret_post' });
  const client = (key: string, id: string, secret: string) => ({
    [`OAUTH_${key}_CLIENT_ID`]: id,
    [`OAUTH_${key}_CLIENT_SECRET`]: secret,
    [`OAUTH_${key}_AUTHORIZE_URL`]: `${as}/authorize`,
    [`OAUTH_${key}_TOKEN_URL`]: `${as}/token`,
    [`OAUTH_${key}_REVOKE_URL`]: `${as}/revoke`,
  });
  app = await startTestApp({
    workers: true,
    config: {
      SSRF_ALLOWLIST: '127.0.0.1/32',
      OAUTH_RETURN_URLS: RETURN,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ...client('GOOGLE_CALENDAR', 'gcal-client', 'gcal-secret'),
      ...client('SALESFORCE', 'sf-client', 'sf-secret'),
      ...client('ZOOM', 'zoom-client', 'zoom secret/+'),
      ...client('HUBSPOT', 'hub-client', 'hub-secret'),
    },
  });
  // The vendor sends the browser back to the api's own address.
  app.config.PUBLIC_BASE_URL = app.url;
});
afterAll(async () => {
  await app.close();
  await Promise.all([fake.close(), receiver.close()]);
});

const manual = (url: string, token?: string, cookie?: string) =>
  fetch(url, { redirect: 'manual', headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(cookie ? { cookie } : {}) } });

/** The cookie each flow's browser holds, by state (a browser's jar, reduced to what the callback is sent). */
const browserCookies = new Map<string, string>();

/** A browser opens a connect link: its binding cookie (name=value) and where it is sent (the vendor's authorize URL). */
async function openLink(link: string) {
  const res = await manual(link);
  expect(res.status).toBe(302);
  const [setCookie] = res.headers.getSetCookie();
  const authorize = new URL(res.headers.get('location')!);
  return { authorize, setCookie: setCookie!, cookie: setCookie!.split(';')[0]! };
}

/** Starts a flow as `token`, opens its connect link and lets the fake user consent: the callback URL the vendor sends the browser to. */
async function consent(token: string, integration = 'google_calendar', returnUrl: string | null = RETURN) {
  const start = await manual(`${app.url}/v1/connections/oauth/${integration}/start${returnUrl ? `?return_url=${encodeURIComponent(returnUrl)}` : ''}`, token);
  expect(start.status).toBe(302);
  const link = start.headers.get('location')!;
  expect(link).toMatch(new RegExp(`^${app.url}/v1/connections/oauth/begin\\?state=`));
  const { authorize, cookie, setCookie } = await openLink(link);
  const back = await manual(authorize.toString());
  expect(back.status).toBe(302);
  const callback = new URL(back.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(`${app.url}/v1/connections/oauth/callback`);
  browserCookies.set(callback.searchParams.get('state')!, cookie);
  return { link, authorize, callback, cookie, setCookie };
}

/** The callback as the browser makes it (by default the browser that opened the flow's link); the outcome it redirects to. */
async function finish(callback: URL, cookie: string | undefined = browserCookies.get(callback.searchParams.get('state') ?? '')) {
  const res = await manual(callback.toString(), undefined, cookie);
  const location = res.headers.get('location');
  return { status: res.status, to: location ? new URL(location) : undefined, body: await res.text(), headers: res.headers };
}

const tokenRequests = () => fake.tokenRequests.length;
const refreshGrants = () => fake.tokenRequests.filter((r) => r.form.get('grant_type') === 'refresh_token').length;
/** As if the connection's last test were longer ago than CONNECTION_TEST_COOLDOWN_SECONDS. */
const coolDown = (id: string) => app.db.query("UPDATE integration_connections SET tested_at = now() - interval '1 hour' WHERE id = $1", [id]);
const connections = async (key: string) => (await app.request('GET', '/v1/connections', { key })).body.connections as any[];
const statesOf = async (ws: string) => (await app.db.query<{ n: string }>('SELECT count(*)::text AS n FROM oauth_states WHERE workspace_id = $1', [ws]))[0]!.n;

describe('OAuth authorization code + PKCE', () => {
  it('connects the workspace: S256 challenge, Google offline consent, code exchanged with the verifier, tokens sealed, back to return_url', async () => {
    const { workspaceId, apiKey } = await app.newWorkspace();
    const { authorize, callback } = await consent(apiKey);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'gcal-client',
      redirect_uri: `${app.url}/v1/connections/oauth/callback`,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      access_type: 'offline',
      prompt: 'consent',
      scope: 'https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.freebusy',
    });
    // Only the state's hash is stored.
    const stored = await app.db.query<{ state_hash: Buffer }>('SELECT state_hash FROM oauth_states WHERE workspace_id = $1', [workspaceId]);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.state_hash.toString('utf8')).not.toContain(authorize.searchParams.get('state'));

    const done = await finish(callback);
    expect(done.status).toBe(302);
    expect([done.headers.get('referrer-policy'), done.headers.get('cache-control')]).toEqual(['no-referrer', 'no-store']);
    expect(done.to!.origin + done.to!.pathname).toBe(RETURN);
    expect(Object.fromEntries(done.to!.searchParams)).toEqual({ status: 'connected', integration: 'google_calendar', connection_id: expect.any(String) });
    const exchange = fake.tokenRequests.at(-1)!.form;
    expect(Object.fromEntries(exchange)).toMatchObject({
      grant_type: 'authorization_code',
      client_id: 'gcal-client',
      client_secret: 'gcal-secret',
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });

    const conn = await loadConnection(app.db, { workspaceId, userId: null, integration: 'google_calendar' });
    expect(conn).toMatchObject({
      kind: 'oauth2',
      secrets: { access_token: expect.stringMatching(/^at-/), refresh_token: expect.stringMatching(/^rt-/) },
      settings: { token_url: `${fake.url}/token`, client_id: 'gcal-client' },
    });
    expect(conn!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    expect(await statesOf(workspaceId)).toBe('0');
    const [listed] = await connections(apiKey);
    expect(listed).toMatchObject({
      id: done.to!.searchParams.get('connection_id'),
      integration: 'google_calendar',
      health: 'ok',
      secret_names: ['access_token', 'refresh_token'],
    });
    expect(JSON.stringify(listed)).not.toContain(conn!.secrets.access_token);
  });

  it('a user (JWT) connects their own; Salesforce keeps instance_url; Zoom gets client_secret_basic; another user or workspace sees 404', async () => {
    const { workspaceId, apiKey } = await app.newWorkspace();
    const email = `o${randomBytes(4).toString('hex')}@example.com`;
    const user = await createUser(app.db, workspaceId, { email, password: 'pw-123456' });
    const jwt = (await app.request('POST', '/api/auth/login', { body: { email, password: 'pw-123456' } })).body.token as string;

    const sf = await finish((await consent(jwt, 'salesforce', null)).callback);
    expect([sf.status, sf.body]).toEqual([200, expect.stringContaining('salesforce is connected')]);
    const conn = await loadConnection(app.db, { workspaceId, userId: user.id, integration: 'salesforce' });
    expect(conn?.settings.instance_url).toBe('https://acme.my.salesforce.com');

    await finish((await consent(jwt, 'hubspot')).callback);
    // HubSpot's portal id, from its token-information endpoint.
    expect((await loadConnection(app.db, { workspaceId, userId: user.id, integration: 'hubspot' }))?.settings.portal_id).toBe('4242');

    await finish((await consent(jwt, 'zoom')).callback);
    const basic = fake.tokenRequests.at(-1)!;
    expect(Buffer.from(basic.authorization!.slice(6), 'base64').toString()).toBe(`zoom-client:${encodeURIComponent('zoom secret/+')}`);
    expect(basic.form.get('client_secret')).toBeNull();

    const mine = (await app.request('GET', '/v1/connections', { key: jwt })).body.connections;
    expect(mine.map((c: { integration: string; user_id: string }) => [c.integration, c.user_id]).sort()).toEqual([
      ['hubspot', user.id],
      ['salesforce', user.id],
      ['zoom', user.id],
    ]);
    const other = await app.newWorkspace();
    expect((await app.request('GET', `/v1/connections/${conn!.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/connections/${conn!.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await app.request('GET', `/v1/connections/${conn!.id}`, { key: apiKey })).body.connection.user_id).toBe(user.id);
    expect((await app.request('GET', `/v1/connections/${conn!.id}`)).status).toBe(401);
  });

  it('a replayed state, a forged state, a code used twice and a PKCE mismatch are refused and store nothing', async () => {
    const a = await app.newWorkspace();
    const first = await consent(a.apiKey);
    expect((await finish(first.callback)).to!.searchParams.get('status')).toBe('connected');
    const before = await connections(a.apiKey);

    // Replayed: the same callback again. The state was spent; the vendor is not asked.
    let asked = tokenRequests();
    const replay = await finish(first.callback);
    expect([replay.status, JSON.parse(replay.body)]).toEqual([
      400,
      { status: 'failed', message: expect.stringMatching(/state: unknown, already used or expired/) },
    ]);
    // Forged: a state this service never issued.
    const forged = new URL(first.callback);
    forged.searchParams.set('state', randomBytes(32).toString('base64url'));
    expect((await finish(forged)).status).toBe(400);
    forged.searchParams.delete('state');
    expect((await finish(forged)).status).toBe(400);
    expect(tokenRequests()).toBe(asked);
    expect(await connections(a.apiKey)).toEqual(before);

    // Expired: a flow not finished within OAUTH_STATE_TTL_SECONDS.
    const late = await consent(a.apiKey);
    await app.db.query("UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE workspace_id = $1", [a.workspaceId]);
    expect((await finish(late.callback)).status).toBe(400);
    expect(tokenRequests()).toBe(asked);
    expect(await statesOf(a.workspaceId)).toBe('0');

    // The spent code, injected into another workspace's flow: the vendor refuses it, nothing is stored there.
    const b = await app.newWorkspace();
    const other = await consent(b.apiKey);
    const injected = new URL(other.callback);
    injected.searchParams.set('code', first.callback.searchParams.get('code')!);
    asked = tokenRequests();
    const reused = await finish(injected);
    expect(Object.fromEntries(reused.to!.searchParams)).toEqual({ status: 'failed', integration: 'google_calendar', error: 'invalid_grant' });
    expect(fake.refusals.at(-1)).toEqual({ grant: 'authorization_code', reason: 'code_reused' });
    expect(tokenRequests()).toBe(asked + 1);
    expect(await connections(b.apiKey)).toEqual([]);
    expect(await statesOf(b.workspaceId)).toBe('0');

    // PKCE: a fresh code issued to flow C, delivered with flow D's state (so D's verifier): refused.
    const c = await consent(b.apiKey);
    const d = await consent(b.apiKey);
    const swapped = new URL(d.callback);
    swapped.searchParams.set('code', c.callback.searchParams.get('code')!);
    expect((await finish(swapped)).to!.searchParams.get('status')).toBe('failed');
    expect(fake.refusals.at(-1)).toEqual({ grant: 'authorization_code', reason: 'pkce' });
    expect(await connections(b.apiKey)).toEqual([]);
  });

  it('a return_url outside the allow-list, or an integration without an OAuth client, is refused before anything is stored', async () => {
    const { workspaceId, apiKey } = await app.newWorkspace();
    for (const url of [
      'https://evil.example.com/settings',
      'https://app.example.com/settingsx',
      'https://app.example.com@evil.example.com/settings',
      'javascript:alert(1)',
    ]) {
      const res = await app.request('GET', `/v1/connections/oauth/google_calendar/start?return_url=${encodeURIComponent(url)}`, { key: apiKey });
      expect([url, res.status, res.body]).toEqual([url, 400, { status: 'failed', message: expect.stringMatching(/return_url: not in OAUTH_RETURN_URLS/) }]);
    }
    const slack = await app.request('GET', '/v1/connections/oauth/slack/start', { key: apiKey });
    expect([slack.status, slack.body.message]).toEqual([409, expect.stringMatching(/OAUTH_SLACK_CLIENT_ID/)]);
    expect((await app.request('GET', '/v1/connections/oauth/mailgun/start', { key: apiKey })).status).toBe(409);
    expect(await statesOf(workspaceId)).toBe('0');
  });
});

// Issue 38 (M1): a flow completes only in the browser that opened its connect link (RFC 9700 §4.7.1).
describe('the browser binding', () => {
  const failed = (message: RegExp) => ({ status: 'failed', message: expect.stringMatching(message) });
  const notThisBrowser = /This browser did not open the connect link/;

  it('redirect=false: the link binds the first browser that opens it; a callback from any other browser stores nothing', async () => {
    const a = await app.newWorkspace();
    const started = await app.request('GET', `/v1/connections/oauth/google_calendar/start?redirect=false&return_url=${encodeURIComponent(RETURN)}`, {
      key: a.apiKey,
    });
    expect(started.status).toBe(200);
    const link = started.body.authorize_url as string;
    expect(link).toMatch(new RegExp(`^${app.url}/v1/connections/oauth/begin\\?state=[A-Za-z0-9_-]{43}$`));

    // A link checker's HEAD spends nothing.
    const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.getSetCookie()]).toEqual([200, []]);

    // The browser the API client hands the link to: HttpOnly, SameSite=Lax, only to the callback path, no Secure on http.
    const mine = await openLink(link);
    expect(mine.setCookie).toMatch(/^sb_oauth_[0-9a-f]{16}=[A-Za-z0-9_-]{43}; /);
    expect(
      mine.setCookie
        .split('; ')
        .slice(1)
        .map((a) => a.replace(/=.*/, '').toLowerCase())
        .sort(),
    ).toEqual(['expires', 'httponly', 'path', 'samesite']);
    expect(mine.setCookie).toMatch(/; path=\/v1\/connections\/oauth\/callback(;|$)/);
    expect(mine.setCookie).toMatch(/; samesite=lax(;|$)/);
    expect(mine.authorize.origin).toBe(fake.url);
    // Only the secret's hash is stored.
    const [row] = await app.db.query<{ binding_hash: Buffer }>('SELECT binding_hash FROM oauth_states WHERE workspace_id = $1', [a.workspaceId]);
    expect(row!.binding_hash).toHaveLength(32);
    expect(row!.binding_hash.toString('base64url')).not.toBe(mine.cookie.split('=')[1]);

    // A second opening, in any browser, is refused and binds nothing.
    const again = await manual(link);
    expect([again.status, await again.json(), again.headers.getSetCookie()]).toEqual([400, failed(/connect link was already opened/), []]);

    // A stranger is sent the vendor's URL and consents there: their callback, without the cookie, is refused.
    const back = await manual(mine.authorize.toString());
    const callback = new URL(back.headers.get('location')!);
    const asked = tokenRequests();
    const stranger = await finish(callback, undefined);
    expect([stranger.status, JSON.parse(stranger.body)]).toEqual([403, failed(notThisBrowser)]);
    expect(tokenRequests()).toBe(asked); // the stranger's code is never exchanged
    expect(await connections(a.apiKey)).toEqual([]);
    expect(await statesOf(a.workspaceId)).toBe('0'); // spent: nobody completes it later
    expect((await finish(callback, mine.cookie)).status).toBe(400);
    expect(await connections(a.apiKey)).toEqual([]);
  });

  it("a wrong cookie or another flow's cookie is refused; the browser that opened the link completes", async () => {
    const a = await app.newWorkspace();
    const one = await consent(a.apiKey);
    const two = await consent(a.apiKey);
    const asked = tokenRequests();
    const name = one.cookie.split('=')[0]!;
    const secretOf = (cookie: string) => cookie.split('=')[1]!;
    // Under the flow's own cookie name: a made-up secret, an empty one, a short one, another flow's secret; or only another flow's cookie.
    const wrong = [randomBytes(32).toString('base64url'), '', 'x', secretOf(two.cookie)];
    for (const [i, cookieOf] of [...wrong.map((v) => (n: string) => `${n}=${v}`), () => two.cookie].entries()) {
      const flow = await consent(a.apiKey);
      const res = await finish(flow.callback, cookieOf(flow.cookie.split('=')[0]!));
      expect([i, res.status, JSON.parse(res.body)]).toEqual([i, 403, failed(notThisBrowser)]);
    }
    expect(tokenRequests()).toBe(asked);
    expect(await connections(a.apiKey)).toEqual([]);

    // Two flows in one browser (two tabs): each has its own cookie, and each completes in that browser.
    const both = `${one.cookie}; ${two.cookie}`;
    const first = await finish(one.callback, both);
    expect(first.to!.searchParams.get('status')).toBe('connected');
    // The spent secret is cleared from the browser.
    expect(first.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^${name}=;.*path=/v1/connections/oauth/callback`))]);
    expect((await finish(two.callback, both)).to!.searchParams.get('status')).toBe('connected');
    expect(await connections(a.apiKey)).toHaveLength(1);
  });

  it('a callback for a flow whose link no browser opened is refused; two browsers racing to open a link: one wins', async () => {
    const a = await app.newWorkspace();
    const started = await app.request('GET', '/v1/connections/oauth/google_calendar/start?redirect=false', { key: a.apiKey });
    const state = new URL(started.body.authorize_url).searchParams.get('state')!;
    const forged = await finish(new URL(`${app.url}/v1/connections/oauth/callback?state=${state}&code=whatever`), undefined);
    expect([forged.status, JSON.parse(forged.body)]).toEqual([403, failed(notThisBrowser)]);

    const raced = await app.request('GET', '/v1/connections/oauth/google_calendar/start?redirect=false', { key: a.apiKey });
    const opened = await Promise.all(Array.from({ length: 8 }, () => manual(raced.body.authorize_url)));
    expect(opened.map((r) => r.status).sort()).toEqual([302, 400, 400, 400, 400, 400, 400, 400]);
    expect(opened.filter((r) => r.headers.getSetCookie().length > 0)).toHaveLength(1);
    for (const bad of ['', '?state=', `?state=${randomBytes(32).toString('base64url')}`]) {
      expect((await manual(`${app.url}/v1/connections/oauth/begin${bad}`)).status).toBe(400);
    }
  });

  it('the cookie is Secure when the public URL is https', async () => {
    const a = await app.newWorkspace();
    const plain = app.config.PUBLIC_BASE_URL;
    app.config.PUBLIC_BASE_URL = 'https://connect.example.com';
    try {
      const started = await app.request('GET', '/v1/connections/oauth/google_calendar/start?redirect=false', { key: a.apiKey });
      const link = new URL(started.body.authorize_url);
      expect(link.origin).toBe('https://connect.example.com');
      const { setCookie, authorize } = await openLink(`${app.url}${link.pathname}${link.search}`);
      expect(setCookie).toMatch(/; secure(;|$)/);
      expect(authorize.searchParams.get('redirect_uri')).toBe('https://connect.example.com/v1/connections/oauth/callback');
    } finally {
      app.config.PUBLIC_BASE_URL = plain;
    }
  });
});

// Issue 38: a user restricted to some integrations (users.allowed_integrations) connects only those.
describe('restricted users', () => {
  it('may not start a connection to another integration, nor complete one restricted since it started', async () => {
    const { workspaceId } = await app.newWorkspace();
    const email = `r${randomBytes(4).toString('hex')}@example.com`;
    const user = await createUser(app.db, workspaceId, { email, password: 'pw-123456' });
    await setAllowedIntegrations(app.db, workspaceId, user.id, ['salesforce', 'google_calendar']);
    const jwt = (await app.request('POST', '/api/auth/login', { body: { email, password: 'pw-123456' } })).body.token as string;

    // Restricted while the flow is under way: the callback stores nothing and does not exchange the code.
    const flow = await consent(jwt, 'google_calendar');
    await setAllowedIntegrations(app.db, workspaceId, user.id, ['salesforce']);
    const asked = tokenRequests();
    const ended = await finish(flow.callback);
    expect(Object.fromEntries(ended.to!.searchParams)).toEqual({ status: 'failed', integration: 'google_calendar', error: 'integration not allowed' });
    expect(tokenRequests()).toBe(asked);

    const refused = await app.request('GET', '/v1/connections/oauth/google_calendar/start?redirect=false', { key: jwt });
    expect([refused.status, refused.body]).toEqual([403, { status: 'failed', message: 'Forbidden: you are not allowed to connect google_calendar' }]);
    expect(await statesOf(workspaceId)).toBe('0');
    expect((await finish((await consent(jwt, 'salesforce')).callback)).to!.searchParams.get('status')).toBe('connected');
    const mine = (await app.request('GET', '/v1/connections', { key: jwt })).body.connections;
    expect(mine.map((c: { integration: string }) => c.integration)).toEqual(['salesforce']);
  });
});

describe('connection health', () => {
  it('a refused refresh marks the connection broken, publishes a signed connection.broken once, and reconnecting mends it', async () => {
    const { workspaceId, apiKey, superuserKey } = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: superuserKey })).body.webhook_secret;
    const path = `/broken-${workspaceId}`;
    // The subscriber fails once: the event comes again (same id) and is processed once.
    receiver.script(path, [503, 200]);
    const sub = await app.request('POST', '/v1/calls/subscriptions', { key: apiKey, body: { url: receiverUrl + path, events: ['connection.broken'] } });
    expect(sub.status).toBe(200);
    const id = (await finish((await consent(apiKey)).callback)).to!.searchParams.get('connection_id')!;

    const healthy = await app.request('POST', `/v1/connections/${id}/test`, { key: apiKey });
    expect(healthy.body).toMatchObject({ status: 'success', tested: true, ok: true, connection: { health: 'ok' } });
    expect(healthy.headers.get('switchboard-workflow-id')).toBeNull(); // no run started

    fake.refuseRefresh = true;
    try {
      await coolDown(id);
      const test = await app.request('POST', `/v1/connections/${id}/test`, { key: apiKey });
      expect(test.body).toMatchObject({
        tested: true,
        ok: false,
        message: expect.stringMatching(/must be reconnected.*invalid_grant/),
        connection: { health: 'broken', broken_reason: expect.stringMatching(/refused the token refresh \(invalid_grant\)/), broken_at: expect.any(String) },
      });
      // The answer names the delivery of connection.broken it started (issue 28).
      const delivery = test.headers.get('switchboard-workflow-id');
      expect(delivery).toMatch(/^connection-event:/);
      await app.temporal.client.workflow.getHandle(delivery!).describe();
      const again = await app.request('POST', `/v1/connections/${id}/test`, { key: apiKey });
      expect(again.body).toMatchObject({ ok: false, connection: { health: 'broken' } });
    } finally {
      fake.refuseRefresh = false;
    }
    expect((await connections(apiKey))[0]).toMatchObject({ id, health: 'broken' });

    await eventually(async () => receiver.on(path).length >= 2, 30_000, 'connection.broken, retried');
    const [failed, delivery] = receiver.on(path) as [Delivery, Delivery];
    expect([failed.status, delivery.status, failed.eventId, failed.body]).toEqual([503, 200, delivery.eventId, delivery.body]);
    expect(receiver.processed.filter((e) => e === delivery.eventId)).toHaveLength(1);
    expect(delivery.verified).toBe(true);
    expect(verifySignature(receiver.secret, delivery.signature, delivery.body)).toBe(true);
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({
      id: delivery.eventId,
      type: 'connection.broken',
      data: { connection: { id, health: 'broken', integration: 'google_calendar' } },
    });
    expect(delivery.body).not.toMatch(/at-|rt-/);
    // Started again for the same breakage (a retrying caller): the same workflow, delivered once.
    const again = await app.temporal.client.workflow.execute(deliverConnectionEvent, {
      workflowId: `redo-${delivery.eventId}`,
      taskQueue: taskQueue('automations', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [{ workspaceId, connectionId: id, type: 'connection.broken', eventId: delivery.eventId!, at: event.created_at }],
    });
    expect(again).toEqual({ delivered: 0, refused: 0 });
    expect(receiver.on(path)).toHaveLength(2);

    // Connecting again through the flow mends it (same connection id).
    const mended = await finish((await consent(apiKey)).callback);
    expect(mended.to!.searchParams.get('connection_id')).toBe(id);
    expect((await app.request('GET', `/v1/connections/${id}`, { key: apiKey })).body.connection).toMatchObject({
      health: 'ok',
      broken_at: null,
      broken_reason: null,
    });
  });

  it('an automation run whose refresh is refused: reconnect_required, the connection broken and announced; later runs fail without asking the vendor', async () => {
    const { workspaceId, apiKey, superuserKey } = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: superuserKey })).body.webhook_secret;
    const path = `/run-broken-${workspaceId}`;
    await app.request('POST', '/v1/calls/subscriptions', { key: apiKey, body: { url: receiverUrl + path, events: ['connection.broken'] } });
    const id = (await finish((await consent(apiKey)).callback)).to!.searchParams.get('connection_id')!;
    await app.db.query("UPDATE integration_connections SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
    const execute = () =>
      app.request('POST', '/api/automation/execute', {
        headers: { 'x-key': superuserKey },
        body: { automationType: 'google_calendar', nodeParams: { action: 'appointment', params: { summary: 'Call back', start: '2030-01-07T10:00:00Z' } } },
      });
    fake.refuseRefresh = true;
    try {
      const first = await execute();
      expect(first.body).toMatchObject({
        success: false,
        error: expect.stringMatching(/must be reconnected.*invalid_grant/),
        metadata: { errorType: 'reconnect_required' },
      });
      const asked = tokenRequests();
      const second = await execute();
      expect(second.body).toMatchObject({ success: false, metadata: { errorType: 'reconnect_required' } });
      expect(tokenRequests()).toBe(asked);
    } finally {
      fake.refuseRefresh = false;
    }
    const delivery = await eventually(async () => receiver.on(path)[0], 30_000, 'connection.broken from the run');
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'connection.broken', data: { connection: { id, health: 'broken' } } });
    expect(delivery.verified).toBe(true);
    // A later run on the broken connection publishes the same event again: still delivered once.
    expect((await execute()).body).toMatchObject({ success: false, metadata: { errorType: 'reconnect_required' } });
    const handle = app.temporal.client.workflow.getHandle(`connection-event:${delivery.eventId}`);
    await handle.result();
    expect(receiver.on(path)).toHaveLength(1);
  });

  it('tests of one connection are spaced by the cooldown (429 with Retry-After): 30 at once make one refresh grant at the vendor', async () => {
    const { apiKey } = await app.newWorkspace();
    const id = (await finish((await consent(apiKey)).callback)).to!.searchParams.get('connection_id')!;
    const before = refreshGrants();
    const started = Date.now();
    const tests = await Promise.all(Array.from({ length: 30 }, () => app.request('POST', `/v1/connections/${id}/test`, { key: apiKey })));
    const elapsed = Date.now() - started;
    expect(tests.filter((t) => t.status === 200).map((t) => t.body.ok)).toEqual([true]);
    const refused = tests.filter((t) => t.status !== 200);
    expect(refused).toHaveLength(29);
    for (const t of refused) {
      expect([t.status, t.body]).toEqual([
        429,
        { status: 'failed', message: expect.stringMatching(/^Too many tests of this connection: at most 1 per 30 s; retry in \d+ s$/) },
      ]);
      expect(Number(t.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(t.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    }
    expect(refreshGrants()).toBe(before + 1);
    process.stderr.write(`[connection test cooldown] 30 concurrent tests in ${elapsed} ms: ${refreshGrants() - before} refresh grant\n`);

    // Another connection is not held back; once the cooldown has passed, the same one is tested again.
    const other = await app.newWorkspace();
    const otherId = (await finish((await consent(other.apiKey)).callback)).to!.searchParams.get('connection_id')!;
    expect((await app.request('POST', `/v1/connections/${otherId}/test`, { key: other.apiKey })).body.ok).toBe(true);
    await coolDown(id);
    expect((await app.request('POST', `/v1/connections/${id}/test`, { key: apiKey })).body.ok).toBe(true);
    expect(refreshGrants()).toBe(before + 3);
  });

  it('delete revokes the grant at the vendor (RFC 7009) and removes the connection', async () => {
    const { workspaceId, apiKey } = await app.newWorkspace();
    const id = (await finish((await consent(apiKey)).callback)).to!.searchParams.get('connection_id')!;
    const refresh = (await loadConnection(app.db, { workspaceId, userId: null, integration: 'google_calendar' }))!.secrets.refresh_token;
    const res = await app.request('DELETE', `/v1/connections/${id}`, { key: apiKey });
    expect(res.body).toEqual({ status: 'success', id, revoked: 'revoked', message: 'Connection deleted' });
    expect(fake.revoked).toContain(refresh);
    expect(await connections(apiKey)).toEqual([]);
    expect((await app.request('DELETE', `/v1/connections/${id}`, { key: apiKey })).status).toBe(404);
    expect((await app.request('GET', '/v1/connections/not-a-uuid', { key: apiKey })).status).toBe(404);
  });

  it('the refresh schedule: created once, idempotently; its workflow renews tokens expiring within the horizon and breaks refused ones', async () => {
    const prefix = app.config.TEMPORAL_TASK_QUEUE_PREFIX;
    expect(await ensureRefreshSchedule(app.temporal.client, prefix)).toBe(true);
    expect(await ensureRefreshSchedule(app.temporal.client, prefix)).toBe(false);
    const schedule = app.temporal.client.schedule.getHandle(refreshScheduleId(prefix));
    try {
      const described = await schedule.describe();
      expect(described.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'refreshExpiringConnections',
        taskQueue: taskQueue('automations', prefix),
      });
    } finally {
      await schedule.delete();
    }

    const { workspaceId, apiKey } = await app.newWorkspace();
    await finish((await consent(apiKey)).callback);
    await finish((await consent(apiKey, 'zoom')).callback);
    // Both expire in 10 minutes: idle connections no run would refresh.
    await app.db.query("UPDATE integration_connections SET expires_at = now() + interval '10 minutes' WHERE workspace_id = $1", [workspaceId]);
    const before = (await loadConnection(app.db, { workspaceId, userId: null, integration: 'google_calendar' }))!.secrets.access_token;

    const counts = await app.temporal.client.workflow.execute(refreshExpiringConnections, {
      workflowId: `refresh-test-${workspaceId}`,
      taskQueue: taskQueue('automations', prefix),
      args: [{ horizonSeconds: 30 * 60, workspaceId }],
    });
    expect(counts).toMatchObject({ refreshed: 2, broken: 0, failed: 0 });
    const after = (await loadConnection(app.db, { workspaceId, userId: null, integration: 'google_calendar' }))!;
    expect(after.secrets.access_token).not.toBe(before);
    expect(after.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3000_000);

    // Due again, and the vendor refuses: broken, and not picked up by later runs.
    await app.db.query("UPDATE integration_connections SET expires_at = now() + interval '5 minutes' WHERE workspace_id = $1", [workspaceId]);
    fake.refuseRefresh = true;
    try {
      const refused = await app.temporal.client.workflow.execute(refreshExpiringConnections, {
        workflowId: `refresh-test-2-${workspaceId}`,
        taskQueue: taskQueue('automations', prefix),
        args: [{ horizonSeconds: 30 * 60, workspaceId }],
      });
      expect(refused).toMatchObject({ refreshed: 0, broken: 2 });
    } finally {
      fake.refuseRefresh = false;
    }
    expect((await connections(apiKey)).map((c) => c.health)).toEqual(['broken', 'broken']);
    const rerun = await app.temporal.client.workflow.execute(refreshExpiringConnections, {
      workflowId: `refresh-test-3-${workspaceId}`,
      taskQueue: taskQueue('automations', prefix),
      args: [{ horizonSeconds: 30 * 60, workspaceId }],
    });
    expect(rerun).toMatchObject({ refreshed: 0, broken: 0, failed: 0 });
  });
});
