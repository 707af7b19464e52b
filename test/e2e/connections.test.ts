import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnection, ensureFreshConnection, listConnections, loadConnection } from '../../src/connections/store';
import { defaultKeyring, SealedValueError, Keyring } from '../../src/crypto/keyring';
import { createDb, type Db } from '../../src/db/pool';
import { createUser } from '../../src/workspaces/db/users';
import { sealLegacyWebhookSecrets, webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { UUID_PATTERN } from '../../src/core/ids';
import { VendorError, type AuthSpec } from '../../src/integrations/define';
import { testEnv } from '../helpers/env';
import { runCli } from '../helpers/processes';

const db = createDb(testEnv('databaseUrl'), { max: 5 });
afterAll(() => db.close());

const cliEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: testEnv('databaseUrl'), LOG_LEVEL: 'warn' });
const cli = async (args: string[], input = '') => {
  const res = await runCli(args, cliEnv(), input);
  return { ...res, json: res.code === 0 && res.stdout.trim() ? JSON.parse(res.stdout) : undefined };
};
const newWorkspace = async () => (await createWorkspace(db, { name: `conn ${randomBytes(3).toString('hex')}` })).id;
const secretValue = () => `s3cr3t-${randomBytes(12).toString('hex')}`;

/** Every row of a table as text, as a dump would show it. */
const dumpOf = (table: string) =>
  execFileSync('pg_dump', ['--data-only', '--table', table, testEnv('databaseUrl')], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

describe('connections: CLI', () => {
  it('creates, lists, replaces and deletes connections without ever printing a secret', async () => {
    const ws = await newWorkspace();
    const user = await createUser(db, ws, { email: `c${randomBytes(4).toString('hex')}@example.com`, password: 'pw' });
    const apiKey = secretValue();
    const token = secretValue();

    const created = await cli(
      ['connection', 'create', '--workspace', ws, '--integration', 'hubspot', '--secrets-stdin', '--setting', 'portal_id=42'],
      JSON.stringify({ api_key: apiKey }),
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      status: 'success',
      replaced: false,
      id: expect.stringMatching(UUID_PATTERN),
      user_id: null,
      integration: 'hubspot',
      kind: 'api_key',
      settings: { portal_id: '42' },
      secret_names: ['api_key'],
    });
    const mine = await cli([
      'connection',
      'create',
      '--workspace',
      ws,
      '--integration',
      'slack',
      '--user',
      user.email,
      '--kind',
      'oauth2',
      '--secret',
      `access_token=${token}`,
      '--expires-in',
      '3600',
    ]);
    expect(mine.json).toMatchObject({ user_id: user.id, kind: 'oauth2', secret_names: ['access_token'], expires_at: expect.any(String) });
    for (const out of [created, mine]) expect(out.stdout + out.stderr).not.toMatch(new RegExp(`${apiKey}|${token}`));

    const again = await cli(['connection', 'create', '--workspace', ws, '--integration', 'hubspot', '--secret', 'api_key=rotated-key']);
    expect(again.json).toMatchObject({ replaced: true, id: created.json.id, settings: {} });

    const listed = await cli(['connection', 'list', '--workspace', ws]);
    expect(listed.json.map((c: { integration: string; secret_names: string[] }) => [c.integration, c.secret_names])).toEqual([
      ['hubspot', ['api_key']],
      ['slack', ['access_token']],
    ]);
    expect(listed.stdout).not.toMatch(/rotated-key|s3cr3t/);

    expect((await loadConnection(db, { workspaceId: ws, userId: null, integration: 'hubspot' }))?.secrets).toEqual({ api_key: 'rotated-key' });
    expect((await loadConnection(db, { workspaceId: ws, userId: user.id, integration: 'slack' }))?.secrets).toEqual({ access_token: token });
    expect(await loadConnection(db, { workspaceId: ws, userId: user.id, integration: 'hubspot' })).toBeNull();
    expect(await loadConnection(db, { workspaceId: await newWorkspace(), userId: null, integration: 'hubspot' })).toBeNull();

    const deleted = await cli(['connection', 'delete', '--workspace', ws, created.json.id]);
    expect(deleted.json).toEqual({ status: 'success', message: `deleted ${created.json.id}`, revoked: 'unsupported' });
    expect((await cli(['connection', 'delete', '--workspace', ws, created.json.id])).stderr).toMatch(/no connection/);
    // Another workspace cannot delete it.
    expect((await cli(['connection', 'delete', '--workspace', await newWorkspace(), mine.json.id])).code).toBe(1);
    expect((await cli(['connection', 'list', '--workspace', ws])).json).toHaveLength(1);
  });

  it.each([
    [['--integration', 'hubspot', '--kind', 'magic', '--secret', 'a=b'], /--kind must be one of/],
    [['--integration', 'Hub Spot', '--secret', 'a=b'], /--integration is required/],
    [['--integration', 'hubspot'], /--secrets-stdin.*or --secret/],
    [['--integration', 'hubspot', '--secret', 'novalue'], /--secret takes name=value/],
    [['--integration', 'hubspot', '--secrets-stdin'], /stdin must be a JSON object/],
    [['--integration', 'hubspot', '--secret', 'a=b', '--expires-in', 'soon'], /--expires-in/],
  ])('refuses bad input with a usage error and stores nothing: %j', async (args, message) => {
    const ws = await newWorkspace();
    const res = await cli(['connection', 'create', '--workspace', ws, ...args], args.includes('--secrets-stdin') ? '[1]' : '');
    expect(res.code).toBe(64);
    expect(res.stderr).toMatch(message);
    expect(await listConnections(db, ws)).toEqual([]);
  });
});

describe('users: CLI', () => {
  it('restricts a user to some integrations and lifts it with "all"', async () => {
    const ws = await newWorkspace();
    const user = await createUser(db, ws, { email: `r${randomBytes(4).toString('hex')}@example.com`, password: 'pw' });
    const set = await cli(['user', 'set-integrations', '--workspace', ws, '--user', user.email, '--integrations', 'slack, hubspot']);
    expect(set.json).toEqual({ user_id: user.id, email: user.email, allowed_integrations: ['slack', 'hubspot'] });
    expect(await db.query('SELECT allowed_integrations FROM users WHERE id = $1', [user.id])).toEqual([{ allowed_integrations: ['slack', 'hubspot'] }]);
    expect((await cli(['user', 'set-integrations', '--workspace', ws, '--user', user.id, '--integrations', 'all'])).json.allowed_integrations).toBeNull();
    expect(await db.query('SELECT allowed_integrations FROM users WHERE id = $1', [user.id])).toEqual([{ allowed_integrations: null }]);
    expect((await cli(['user', 'set-integrations', '--workspace', ws, '--user', user.id, '--integrations', 'Bad Key'])).code).toBe(64);
    expect((await cli(['user', 'set-integrations', '--workspace', await newWorkspace(), '--user', user.id, '--integrations', 'slack'])).stderr).toMatch(
      /no user/,
    );
  });
});

describe('secrets at rest', () => {
  it('a database dump shows no connection secret, and a sealed value does not open in another row', async () => {
    const ws = await newWorkspace();
    const secret = secretValue();
    const { connection } = await createConnection(db, { workspaceId: ws, userId: null, integration: 'stripe', kind: 'api_key', secrets: { api_key: secret } });
    const { connection: other } = await createConnection(db, {
      workspaceId: ws,
      userId: null,
      integration: 'klaviyo',
      kind: 'api_key',
      secrets: { api_key: 'x' },
    });
    const dump = dumpOf('integration_connections');
    expect(dump).toContain(connection.id);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(Buffer.from(secret).toString('hex'));
    // Copying one row's envelope into another row does not make it readable there.
    await db.query('UPDATE integration_connections SET credentials_enc = (SELECT credentials_enc FROM integration_connections WHERE id = $1) WHERE id = $2', [
      connection.id,
      other.id,
    ]);
    await expect(loadConnection(db, { workspaceId: ws, userId: null, integration: 'klaviyo' })).rejects.toThrow(SealedValueError);
  });

  it('plaintext webhook secrets from before are sealed, keep working, and leave no plaintext in a dump', async () => {
    const ws = await newWorkspace();
    const legacy = `whsec_${randomBytes(24).toString('base64url')}`;
    const legacyPrev = `whsec_${randomBytes(24).toString('base64url')}`;
    await db.query(
      "UPDATE workspaces SET webhook_secret = $2, previous_webhook_secret = $3, previous_webhook_secret_expires_at = now() + interval '1 hour' WHERE id = $1",
      [ws, legacy, legacyPrev],
    );
    expect(await sealLegacyWebhookSecrets(db, defaultKeyring())).toBeGreaterThanOrEqual(1);
    expect(await webhookSecrets(db, ws)).toEqual({ current: legacy, previous: legacyPrev, previousExpiresAt: expect.any(Date) });
    const fresh = await newWorkspace();
    const created = (await webhookSecrets(db, fresh))!.current;
    const dump = dumpOf('workspaces');
    for (const s of [legacy, legacyPrev, created]) expect(dump).not.toContain(s);
    const [row] = await db.query('SELECT webhook_secret, previous_webhook_secret FROM workspaces WHERE id = $1', [ws]);
    expect(row).toEqual({ webhook_secret: null, previous_webhook_secret: null });
  });

  it('keys rotate: a former key still opens, an unknown key is a clear error', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const sealed = new Keyring(a).seal('hello', 'row:1');
    const rotated = new Keyring(b, [a]);
    expect(rotated.openText(sealed, 'row:1')).toBe('hello');
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal('x', 'row:1'))).toBe(false);
    expect(() => new Keyring(b).open(sealed, 'row:1')).toThrow(/unknown key.*ENCRYPTION_KEYS_PREVIOUS/);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => rotated.open(tampered, 'row:1')).toThrow(/does not authenticate/);
    expect(() => rotated.open(sealed, 'row:2')).toThrow(/does not authenticate/);
  });
});

/** A local OAuth2 token endpoint (RFC 6749 §6 refresh_token grant) that records what it was sent. */
async function startTokenEndpoint() {
  const received: Record<string, string>[] = [];
  const state = { status: 200, delayMs: 0, rotate: true, counter: 0 };
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const c of req) text += c;
    return text;
  };
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    received.push(Object.fromEntries(new URLSearchParams(body)));
    await new Promise((r) => setTimeout(r, state.delayMs));
    res.setHeader('content-type', 'application/json');
    if (state.status !== 200) {
      res.statusCode = state.status;
      return res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }));
    }
    state.counter++;
    res.end(
      JSON.stringify({
        access_token: `at-${state.counter}`,
        token_type: 'Bearer',
        expires_in: 3600,
        ...(state.rotate ? { refresh_token: `rt-${state.counter}` } : {}),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    received,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('OAuth2 refresh', () => {
  let endpoint: Awaited<ReturnType<typeof startTokenEndpoint>>;
  beforeAll(async () => {
    endpoint = await startTokenEndpoint();
  });
  afterAll(() => endpoint.close());
  beforeEach(() => {
    endpoint.received.length = 0;
    Object.assign(endpoint.state, { status: 200, delayMs: 0, rotate: true });
  });

  const auth = (): AuthSpec => ({
    kinds: ['oauth2'],
    apply: (c) => ({ headers: { authorization: `Bearer ${c.secrets.access_token}` } }),
    oauth2: { tokenUrl: endpoint.url },
  });
  const allow = { ssrfAllowlist: ['127.0.0.1/8'] };
  async function oauthConnection(expiresInSeconds: number, extra: Record<string, string> = {}) {
    const ws = await newWorkspace();
    await createConnection(db, {
      workspaceId: ws,
      userId: null,
      integration: 'google_calendar',
      kind: 'oauth2',
      secrets: { access_token: 'at-old', refresh_token: 'rt-old', client_secret: 'cs', ...extra },
      settings: { client_id: 'cid' },
      expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
    });
    return { ws, conn: (await loadConnection(db, { workspaceId: ws, userId: null, integration: 'google_calendar' }))! };
  }

  it('leaves a token with time left alone, and refreshes one about to expire with the refresh_token grant', async () => {
    const far = await oauthConnection(3600);
    expect(await ensureFreshConnection(db, far.conn, auth(), allow)).toBe(far.conn);
    expect(endpoint.received).toEqual([]);

    const near = await oauthConnection(30);
    const fresh = await ensureFreshConnection(db, near.conn, auth(), allow);
    expect(endpoint.received).toEqual([{ grant_type: 'refresh_token', refresh_token: 'rt-old', client_id: 'cid', client_secret: 'cs' }]);
    expect(fresh.secrets).toMatchObject({ access_token: expect.stringMatching(/^at-\d+$/), refresh_token: expect.stringMatching(/^rt-\d+$/) });
    // Stored sealed: the next load sees the new token, a dump does not.
    const reloaded = await loadConnection(db, { workspaceId: near.ws, userId: null, integration: 'google_calendar' });
    expect(reloaded?.secrets.access_token).toBe(fresh.secrets.access_token);
    expect(reloaded!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    expect(dumpOf('integration_connections')).not.toContain(fresh.secrets.access_token + '"');
  });

  it('N concurrent runs in several processes make one refresh', async () => {
    const { conn } = await oauthConnection(10);
    endpoint.state.delayMs = 300;
    // Each isolated module copy is a process of its own: its own in-process map and its own pool.
    const pools: Db[] = [];
    const runs: Promise<{ secrets: Record<string, string> }>[] = [];
    for (let p = 0; p < 4; p++) {
      let ensure!: typeof ensureFreshConnection;
      jest.isolateModules(() => {
        ensure = (require('../../src/connections/refresh') as typeof import('../../src/connections/refresh')).ensureFreshConnection;
      });
      const pool = createDb(testEnv('databaseUrl'), { max: 3 });
      pools.push(pool);
      for (let i = 0; i < 3; i++) runs.push(ensure(pool, conn, auth(), allow));
    }
    try {
      const results = await Promise.all(runs);
      expect(endpoint.received).toHaveLength(1);
      expect(new Set(results.map((r) => r.secrets.access_token)).size).toBe(1);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it('a refused refresh is reconnect_required, telling the user to reconnect; nothing is stored', async () => {
    const { ws, conn } = await oauthConnection(-60);
    endpoint.state.status = 400;
    const err = await ensureFreshConnection(db, conn, auth(), allow).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VendorError);
    expect(err).toMatchObject({
      type: 'reconnect_required',
      retryable: false,
      message: expect.stringMatching(/must be reconnected.*invalid_grant.*connection create --integration google_calendar/),
    });
    expect((await loadConnection(db, { workspaceId: ws, userId: null, integration: 'google_calendar' }))?.secrets.access_token).toBe('at-old');
  });

  it('an unreachable token endpoint: the still-valid token is used; an expired one fails retryably', async () => {
    const down = { ...auth(), oauth2: { tokenUrl: 'http://127.0.0.1:9/token' } };
    const valid = await oauthConnection(20);
    expect((await ensureFreshConnection(db, valid.conn, down, allow)).secrets.access_token).toBe('at-old');
    const expired = await oauthConnection(-5);
    await expect(ensureFreshConnection(db, expired.conn, down, allow)).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true });
  });

  it("the connection's token_url goes through the outbound guard", async () => {
    const ws = await newWorkspace();
    await createConnection(db, {
      workspaceId: ws,
      userId: null,
      integration: 'zoom',
      kind: 'oauth2',
      secrets: { access_token: 'a', refresh_token: 'r' },
      settings: { token_url: 'http://169.254.169.254/token' },
      expiresAt: new Date(Date.now() - 1000),
    });
    const conn = (await loadConnection(db, { workspaceId: ws, userId: null, integration: 'zoom' }))!;
    await expect(ensureFreshConnection(db, conn, auth(), allow)).rejects.toMatchObject({
      type: 'reconnect_required',
      message: expect.stringMatching(/not an allowed address/),
    });
    expect(endpoint.received).toEqual([]);
  });
});
