import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT, type KeyLike } from 'jose';
import { automationAuth } from '../../src/auth/http/automation-auth';
import { createJwtAuthority } from '../../src/auth/jwt';
import { createApiKey } from '../../src/workspaces/db/api-keys';
import { createUser, setAllowedIntegrations } from '../../src/workspaces/db/users';
import { ApiKeyResolver } from '../../src/auth/http/api-key-auth';
import { errorHandler } from '../../src/http/middleware/errors';
import type { AppState } from '../../src/http/state';
import { createLogger } from '../../src/telemetry/log';
import { startTestApp, type TestApp } from '../helpers/stack';

const SECRET = randomBytes(32).toString('base64url');
const IDP_ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'switchboard-automation';

/** A local identity provider: publishes an RSA and an EC public key as a JWKS and signs tokens with them. */
async function startFakeIdp() {
  const rsa = await generateKeyPair('RS256');
  const ec = await generateKeyPair('ES256');
  const jwks = {
    keys: [
      { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
    ],
  };
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    fetches++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    rsa,
    ec,
    rsaPem: await exportSPKI(rsa.publicKey),
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Idp = Awaited<ReturnType<typeof startFakeIdp>>;
let idp: Idp;
let app: TestApp;
let probe: Server;
let probeUrl: string;
let keys: ApiKeyResolver;

beforeAll(async () => {
  idp = await startFakeIdp();
  app = await startTestApp({
    config: {
      JWT_SECRET: SECRET,
      JWT_JWKS_URL: idp.url,
      JWT_JWKS_ISSUER: IDP_ISSUER,
      LOGIN_RATE_LIMIT_PER_EMAIL: '3',
    },
  });
  // The middleware on a tiny route of its own, against the real database and the same configuration as the api.
  keys = new ApiKeyResolver(app.db, createLogger('silent', 'test'));
  const koa = new Koa<AppState>();
  koa.use(errorHandler());
  koa.use(automationAuth({ db: app.db, jwt: createJwtAuthority(app.config), keys }, { userTtlMs: 1 }));
  koa.use((ctx) => {
    ctx.body = ctx.state.automation;
  });
  probe = koa.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => probe.once('listening', resolve));
  probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/probe`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  await keys.close();
  await idp.close();
  await app.close();
});

const callProbe = async (headers: Record<string, string>) => {
  const res = await fetch(probeUrl, { headers });
  return { status: res.status, body: (await res.json()) as any };
};
const bearer = (token: string) => callProbe({ authorization: `Bearer ${token}` });
const failed = (message: RegExp) => ({ status: 'failed', message: expect.stringMatching(message) });

async function newUser() {
  const { workspaceId, apiKey, superuserKey } = await app.newWorkspace({ superuser: true });
  const email = `u${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await createUser(app.db, workspaceId, { email, password });
  return { workspaceId, apiKey, superuserKey, email, password, userId: user.id };
}

const login = (body: unknown) => app.request('POST', '/api/auth/login', { body });

/** Signs a token with our secret; claims default to a valid one for userId. */
function ownToken(userId: string, opts: { iss?: string; aud?: string; exp?: number | null; sub?: string | null } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(opts.iss ?? 'switchboard')
    .setAudience(opts.aud ?? AUDIENCE)
    .setIssuedAt(now);
  if (opts.sub !== null) jwt.setSubject(opts.sub ?? userId);
  if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? now + 600);
  return jwt.sign(new TextEncoder().encode(SECRET));
}

function idpToken(userId: string, key: KeyLike, alg: 'RS256' | 'ES256', kid: string, opts: { iss?: string; aud?: string } = {}) {
  return new SignJWT({})
    .setProtectedHeader({ alg, kid })
    .setSubject(userId)
    .setIssuer(opts.iss ?? IDP_ISSUER)
    .setAudience(opts.aud ?? AUDIENCE)
    .setExpirationTime('10m')
    .sign(key);
}

describe('POST /api/auth/login', () => {
  it('exchanges email and password for a JWT that authenticates the user', async () => {
    const u = await newUser();
    const res = await login({ email: u.email.toUpperCase(), password: u.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/), expires_at: expect.any(String) });
    const ttl = Date.parse(res.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    const who = await bearer(res.body.token);
    expect(who).toEqual({ status: 200, body: { workspaceId: u.workspaceId, userId: u.userId, superuser: false, allowedIntegrations: null } });
  });

  it('answers 401 in the error shape for a wrong password and for an unknown email, alike', async () => {
    const u = await newUser();
    const wrong = await login({ email: u.email, password: 'not-it' });
    const unknown = await login({ email: `nobody${randomBytes(4).toString('hex')}@example.com`, password: u.password });
    expect(wrong).toMatchObject({ status: 401, body: failed(/unknown email or wrong password/) });
    expect(unknown).toMatchObject({ status: 401, body: wrong.body });
  });

  it.each([
    ['no body', undefined],
    ['no password', { email: 'a@example.com' }],
    ['not an email', { email: 'nope', password: 'x' }],
    ['empty password', { email: 'a@example.com', password: '' }],
    ['a NUL in the email', { email: 'a\u0000@example.com', password: 'x' }],
  ])('answers 400 to a malformed request: %s', async (_name, body) => {
    const res = await app.request('POST', '/api/auth/login', { body: body ?? '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed(/./));
  });

  it('limits attempts per email (429 with Retry-After), the right password included', async () => {
    const u = await newUser();
    for (let i = 0; i < 3; i++) expect((await login({ email: u.email, password: 'wrong' })).status).toBe(401);
    const limited = await login({ email: u.email, password: u.password });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(failed(/Too many login attempts.*per email/));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another email from the same address is not affected.
    const other = await newUser();
    expect((await login({ email: other.email, password: other.password })).status).toBe(200);
  });

  it('limits attempts per client address', async () => {
    // Counters are shared through the database: a client address of its own (behind a trusted proxy) starts at zero.
    const strict = await startTestApp({ config: { JWT_SECRET: SECRET, LOGIN_RATE_LIMIT_PER_ADDRESS: '2', TRUST_PROXY: 'true' } });
    try {
      const u = await newUser();
      const ip = `10.${randomBytes(3).join('.')}`;
      const headers = { 'x-forwarded-for': ip };
      const attempt = (email: string, password: string) => strict.request('POST', '/api/auth/login', { body: { email, password }, headers });
      expect((await attempt(`x${randomBytes(4).toString('hex')}@example.com`, 'p')).status).toBe(401);
      expect((await attempt(`y${randomBytes(4).toString('hex')}@example.com`, 'p')).status).toBe(401);
      const res = await attempt(u.email, u.password);
      expect(res.status).toBe(429);
      expect(res.body).toEqual(failed(/per client address/));
      // Another address still gets in.
      const other = await strict.request('POST', '/api/auth/login', {
        body: { email: u.email, password: u.password },
        headers: { 'x-forwarded-for': `10.${randomBytes(3).join('.')}` },
      });
      expect(other.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  // Issue 38 (L9): wrong passwords from one address used to lock the user out everywhere for the window.
  it('counts failures per (email, address): one address guessing does not lock the user out; a higher ceiling per email holds', async () => {
    const spread = await startTestApp({
      config: { JWT_SECRET: SECRET, TRUST_PROXY: 'true', LOGIN_RATE_LIMIT_PER_EMAIL: '3', LOGIN_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: '7' },
    });
    try {
      const u = await newUser();
      const address = () => `10.${randomBytes(3).join('.')}`;
      const from = (ip: string, password: string) =>
        spread.request('POST', '/api/auth/login', { body: { email: u.email, password }, headers: { 'x-forwarded-for': ip } });
      const attacker = address();
      for (let i = 0; i < 3; i++) expect((await from(attacker, 'wrong')).status).toBe(401);
      const stopped = await from(attacker, u.password);
      expect([stopped.status, stopped.body]).toEqual([429, failed(/at most 3 failed attempts per email from one client address per \d+ s; retry in \d+ s/)]);
      expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0);
      // The user, from their own address, still logs in, as often as they like: successes are not failures.
      const home = address();
      for (let i = 0; i < 5; i++) expect((await from(home, u.password)).status).toBe(200);
      // Spread over addresses, guesses meet the per-email ceiling (7 failures in all; the attacker's refused try was not one).
      for (const ip of [address(), address()]) for (let i = 0; i < 2; i++) expect((await from(ip, 'wrong')).status).toBe(401);
      const ceiling = await from(address(), 'wrong');
      expect([ceiling.status, ceiling.body]).toEqual([429, failed(/at most 7 failed attempts per email from all addresses/)]);
      // Another email is not affected; the shared counters hold no emails or addresses.
      const other = await newUser();
      expect(
        (await spread.request('POST', '/api/auth/login', { body: { email: other.email, password: other.password }, headers: { 'x-forwarded-for': attacker } }))
          .status,
      ).toBe(200);
      const buckets = (await spread.db.query<{ bucket: string }>("SELECT bucket FROM rate_limits WHERE bucket LIKE 'login-%'")).map((r) => r.bucket);
      expect(buckets.filter((b) => b.includes('@') || b.includes(attacker))).toEqual([]);
    } finally {
      await spread.close();
    }
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    expect(doc.paths['/api/auth/login'].post).toMatchObject({
      security: [],
      responses: { 200: expect.anything(), 401: expect.anything(), 429: expect.anything() },
    });
  });
});

describe('user JWTs on the automation middleware', () => {
  it('refuses alg none', async () => {
    const u = await newUser();
    const token = new UnsecuredJWT({}).setSubject(u.userId).setIssuer('switchboard').setAudience(AUDIENCE).setExpirationTime('10m').encode();
    expect(await bearer(token)).toEqual({ status: 401, body: failed(/algorithm "none" is not accepted/) });
  });

  it('refuses HS/RS confusion: an HS256 token keyed with the published RSA public key', async () => {
    const u = await newUser();
    for (const secret of [idp.rsaPem, JSON.stringify(await exportJWK(idp.rsa.publicKey))]) {
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' })
        .setSubject(u.userId)
        .setIssuer(IDP_ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(secret));
      expect(await bearer(token)).toEqual({ status: 401, body: failed(/signature does not verify/) });
    }
  });

  it('refuses an RS256 header over an HMAC signature with our secret', async () => {
    const u = await newUser();
    const [, payload] = (await ownToken(u.userId)).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'rsa-1' })).toString('base64url');
    const { createHmac } = await import('node:crypto');
    const sig = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url');
    expect((await bearer(`${header}.${payload}.${sig}`)).status).toBe(401);
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 3600 }, /token expired/],
    ['wrong audience', { aud: 'someone-else' }, /claim "aud"/],
    ['wrong issuer', { iss: 'https://evil.example/' }, /claim "iss"/],
    ['no exp', { exp: null }, /claim "exp"/],
    ['no sub', { sub: null }, /claim "sub"/],
    ['a subject that is no user', { sub: '00000000-0000-4000-8000-000000000000' }, /user does not exist/],
    ['a subject that is no uuid', { sub: 'admin' }, /user does not exist/],
  ])('refuses our own token when %s', async (_name, opts, message) => {
    const u = await newUser();
    expect(await bearer(await ownToken(u.userId, opts))).toEqual({ status: 401, body: failed(message) });
  });

  it('refuses a tampered token (another user in the payload, signature kept)', async () => {
    const a = await newUser();
    const b = await newUser();
    const [header, payload, sig] = (await ownToken(a.userId)).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: b.userId })).toString('base64url');
    expect(await bearer(`${header}.${forged}.${sig}`)).toEqual({ status: 401, body: failed(/signature does not verify/) });
    expect((await bearer(`${header}.${payload}.${sig}`)).status).toBe(200);
  });

  it.each([
    ['no credentials', {}, 401, /send Authorization: Bearer <user JWT> or x-key/],
    ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }, 401, /expected "Authorization: Bearer <user JWT>"/],
    ['garbage bearer', { authorization: 'Bearer abc.def' }, 401, /not a JWT/],
    ['huge bearer', { authorization: `Bearer ${'a'.repeat(9000)}` }, 401, /too long/],
  ])('refuses %s', async (_name, headers, status, message) => {
    expect(await callProbe(headers as Record<string, string>)).toEqual({ status, body: failed(message) });
  });

  it('accepts RS256 and ES256 tokens signed by a key of the configured JWKS', async () => {
    const u = await newUser();
    for (const [key, alg, kid] of [
      [idp.rsa.privateKey, 'RS256', 'rsa-1'],
      [idp.ec.privateKey, 'ES256', 'ec-1'],
    ] as const) {
      expect(await bearer(await idpToken(u.userId, key, alg, kid))).toEqual({
        status: 200,
        body: { workspaceId: u.workspaceId, userId: u.userId, superuser: false, allowedIntegrations: null },
      });
    }
    expect(idp.fetches()).toBeGreaterThan(0);
  });

  it('refuses JWKS-style tokens from a key not in the set, or with the wrong issuer or audience', async () => {
    const u = await newUser();
    const stranger = await generateKeyPair('RS256');
    expect(await bearer(await idpToken(u.userId, stranger.privateKey, 'RS256', 'rsa-1'))).toEqual({ status: 401, body: failed(/signature does not verify/) });
    expect(await bearer(await idpToken(u.userId, stranger.privateKey, 'RS256', 'unknown-kid'))).toEqual({ status: 401, body: failed(/no key of the key set/) });
    expect(await bearer(await idpToken(u.userId, idp.rsa.privateKey, 'RS256', 'rsa-1', { iss: 'switchboard' }))).toEqual({
      status: 401,
      body: failed(/claim "iss"/),
    });
    expect(await bearer(await idpToken(u.userId, idp.rsa.privateKey, 'RS256', 'rsa-1', { aud: 'other' }))).toEqual({
      status: 401,
      body: failed(/claim "aud"/),
    });
    // An EC key cannot stand in for the RSA key of the same kid.
    expect((await bearer(await idpToken(u.userId, idp.ec.privateKey, 'ES256', 'rsa-1'))).status).toBe(401);
  });

  it('a key set that cannot be fetched is a 503 to retry, not a 401', async () => {
    const u = await newUser();
    const dead = new Koa<AppState>();
    dead.use(errorHandler());
    dead.use(automationAuth({ db: app.db, jwt: createJwtAuthority({ ...app.config, JWT_JWKS_URL: 'http://127.0.0.1:9/jwks.json' }), keys }));
    const server = dead.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: { authorization: `Bearer ${await idpToken(u.userId, idp.rsa.privateKey, 'RS256', 'rsa-1')}` },
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual(failed(/key set .* unavailable/));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("carries the user's integration restriction", async () => {
    const u = await newUser();
    await setAllowedIntegrations(app.db, u.workspaceId, u.email, ['slack', 'hubspot']);
    const res = await bearer(await ownToken(u.userId));
    expect(res.body).toEqual({ workspaceId: u.workspaceId, userId: u.userId, superuser: false, allowedIntegrations: ['slack', 'hubspot'] });
  });
});

describe('x-key on the automation middleware', () => {
  it('a superuser key is superuser mode in its workspace', async () => {
    const u = await newUser();
    expect(await callProbe({ 'x-key': u.superuserKey })).toEqual({
      status: 200,
      body: { workspaceId: u.workspaceId, userId: null, superuser: true, allowedIntegrations: null },
    });
  });

  it("the workspace's ordinary API key is superuser mode in its workspace too (seed section 5)", async () => {
    const u = await newUser();
    expect(await callProbe({ 'x-key': u.apiKey })).toEqual({
      status: 200,
      body: { workspaceId: u.workspaceId, userId: null, superuser: true, allowedIntegrations: null },
    });
  });

  it('a key whose scopes leave out integrations is 403, an unknown one 401, both headers at once 400', async () => {
    const u = await newUser();
    const restOnly = await createApiKey(app.db, u.workspaceId, { name: 'rest only', scopes: ['rest'] });
    expect(await callProbe({ 'x-key': restOnly.key })).toEqual({ status: 403, body: failed(/scopes \(rest\) do not include integrations/) });
    expect(await callProbe({ 'x-key': 'sbx_nope' })).toEqual({ status: 401, body: failed(/invalid or revoked key/) });
    expect(await callProbe({ 'x-key': u.superuserKey, authorization: `Bearer ${await ownToken(u.userId)}` })).toEqual({
      status: 400,
      body: failed(/not both/),
    });
  });
});
