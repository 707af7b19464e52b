import net from 'node:net';
import { defineAction, defineIntegration, VendorError, type Connection } from '../../src/integrations/define';
import { bearerAuth } from '../../src/integrations/auth';
import { VendorClient } from '../../src/integrations/vendor-client';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { z } from 'zod';

const integration = defineIntegration({
  key: 'acme',
  name: 'Acme',
  auth: bearerAuth(['api_key']),
  baseUrl: 'https://api.acme.invalid/v1',
  headers: { 'Acme-Version': '2026-01' },
  errorInBody: (res) => ((res.body as { ok?: boolean })?.ok === false ? new VendorError('vendor_error_in_body', 'Acme said no', false, res.status) : undefined),
  actions: [defineAction({ key: 'noop', title: 'noop', input: z.object({}), output: z.unknown(), idempotent: true, docs: 'x', run: async () => ({}) })],
});
const connection: Connection = { id: 'c1', integration: 'acme', kind: 'api_key', secrets: { api_key: 'sk-secret' }, settings: {} };

describe('the shared vendor client', () => {
  let fake: VendorFake;
  let waits: number[];
  const client = (extra: Partial<ConstructorParameters<typeof VendorClient>[0]> = {}) =>
    new VendorClient({
      integration,
      connection,
      baseUrlOverride: `${fake.url}/v1`,
      ssrfAllowlist: ['127.0.0.1/8'],
      sleep: async (ms) => void waits.push(ms),
      ...extra,
    });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.clear();
    waits = [];
  });

  it('sends auth, integration headers, query and a JSON body to the base URL', async () => {
    fake.on('POST', '/v1/things', { status: 201, body: { id: 't1' } });
    const c = client();
    const res = await c.request({ method: 'POST', path: '/things', query: { tag: ['a', 'b'], skip: undefined }, json: { name: 'x' } });
    expect(res).toMatchObject({ status: 201, body: { id: 't1' } });
    const [req] = fake.received('POST', '/v1/things');
    expect(req!.headers).toMatchObject({ authorization: 'Bearer sk-secret', 'acme-version': '2026-01', 'content-type': 'application/json' });
    expect(req!.query).toEqual({ tag: ['a', 'b'] });
    expect(req!.body).toEqual({ name: 'x' });
    expect(c.attempts).toBe(1);
  });

  it('sends form bodies and a connection base_url wins over the override', async () => {
    fake.on('POST', '/own/form', { status: 200, body: { ok: true } });
    const own = { ...connection, settings: { base_url: `${fake.url}/own` } };
    await client({ connection: own }).request({ method: 'POST', path: 'form', form: { 'a[0]': 1, b: 'x y' } });
    expect(fake.received('POST', '/own/form')[0]!.rawBody).toBe('a%5B0%5D=1&b=x+y');
  });

  it('retries 429 honouring Retry-After and 5xx with backoff, counting attempts', async () => {
    fake.on(
      'GET',
      '/v1/flaky',
      { status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow down' } },
      { status: 503, body: 'down' },
      { status: 200, body: { ok: 1 } },
    );
    const c = client();
    await expect(c.request({ method: 'GET', path: '/flaky' })).resolves.toMatchObject({ status: 200 });
    expect(c.attempts).toBe(3);
    expect(waits[0]).toBe(2000);
    expect(waits[1]).toBeGreaterThanOrEqual(500);
    expect(fake.received('GET', '/v1/flaky')).toHaveLength(3);
  });

  it('gives up after maxAttempts with a retryable error, and when Retry-After exceeds the bound', async () => {
    fake.on('GET', '/v1/down', { status: 502, body: { error: { message: 'bad gateway' } } });
    const c = client({ maxAttempts: 2 });
    await expect(c.request({ method: 'GET', path: '/down' })).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true, status: 502 });
    expect(c.attempts).toBe(2);
    fake.on('GET', '/v1/later', { status: 429, headers: { 'retry-after': '3600' }, body: {} });
    const d = client();
    await expect(d.request({ method: 'GET', path: '/later' })).rejects.toMatchObject({ type: 'vendor_rate_limited', retryable: true, retryAfterMs: 3_600_000 });
    expect(d.attempts).toBe(1);
  });

  it.each([
    [400, 'vendor_rejected', /rejected the request \(400: email is invalid\)/],
    [401, 'vendor_auth_failed', /reconnect/],
    [403, 'vendor_auth_failed', /reconnect/],
    [404, 'vendor_not_found', /404/],
    [422, 'vendor_rejected', /email is invalid/],
  ])('does not retry %i (%s) and surfaces the vendor message', async (status, type, message) => {
    fake.on('POST', '/v1/bad', { status, body: { message: 'email is invalid' } });
    const c = client();
    const err = await c.request({ method: 'POST', path: '/bad', json: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VendorError);
    expect(err).toMatchObject({ type, retryable: false, status });
    expect((err as Error).message).toMatch(message);
    expect(c.attempts).toBe(1);
  });

  it('detects errors in a 200 body per integration', async () => {
    fake.on('GET', '/v1/inbody', { status: 200, body: { ok: false } });
    await expect(client().request({ method: 'GET', path: '/inbody' })).rejects.toMatchObject({ type: 'vendor_error_in_body' });
  });

  it('retries a dropped connection, and caps response size', async () => {
    fake.on('GET', '/v1/drop', { drop: true }, { status: 200, body: { fine: true } });
    const c = client();
    await expect(c.request({ method: 'GET', path: '/drop' })).resolves.toMatchObject({ body: { fine: true } });
    expect(c.attempts).toBe(2);
    fake.on('GET', '/v1/big', { status: 200, body: 'x'.repeat(5000) });
    await expect(client({ maxResponseBytes: 1000 }).request({ method: 'GET', path: '/big' })).rejects.toMatchObject({
      type: 'vendor_response_too_large',
      retryable: false,
    });
  });

  it('refuses private addresses without the allowlist and sends no credentials to other origins', async () => {
    fake.on('GET', '/v1/x', { status: 200, body: {} });
    await expect(client({ ssrfAllowlist: [] }).request({ method: 'GET', path: '/x' })).rejects.toMatchObject({ type: 'ssrf_blocked', retryable: false });
    await expect(client().request({ method: 'GET', url: 'http://169.254.169.254/latest/meta-data' })).rejects.toMatchObject({ type: 'ssrf_blocked' });
    expect(fake.requests).toHaveLength(0);
    await client({ baseUrlOverride: 'http://localhost:1/v1' }).request({ method: 'GET', url: `${fake.url}/v1/x` });
    expect(fake.received('GET', '/v1/x')[0]!.headers.authorization).toBeUndefined();
  });

  describe('for an action that is not idempotent', () => {
    const once = (acted: string[]) => client({ idempotent: false, onActed: () => acted.push('acted') });

    it.each([
      ['a 500', { status: 500, body: { message: 'boom' } }, 500],
      ['a 502', { status: 502, body: { message: 'bad gateway' } }, 502],
      ['a dropped connection', { drop: true }, undefined],
    ])('does not send a POST again after %s (the vendor may have acted): outcome_unknown', async (_what, answer, status) => {
      fake.on('POST', '/v1/charge', answer, { status: 200, body: { ok: 1 } });
      const acted: string[] = [];
      const c = once(acted);
      const err = await c.request({ method: 'POST', path: '/charge', json: {} }).catch((e: unknown) => e);
      expect(err).toMatchObject({ type: 'outcome_unknown', retryable: false, ...(status ? { status } : {}) });
      expect((err as Error).message).toMatch(/^outcome unknown: .*not sent again/);
      expect(fake.received('POST', '/v1/charge')).toHaveLength(1);
      expect(acted).toEqual(['acted']);
    });

    it('does not send a POST again after a timeout', async () => {
      fake.on('POST', '/v1/slow', () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: {} }), 2000)));
      const err = await once([])
        .request({ method: 'POST', path: '/slow', json: {}, timeoutMs: 200 })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ type: 'outcome_unknown', retryable: false });
      expect(fake.received('POST', '/v1/slow')).toHaveLength(1);
    });

    it('retries what proves nothing happened (429, 503, a refused connection) and any GET', async () => {
      fake.on('POST', '/v1/busy', { status: 429, headers: { 'retry-after': '0' }, body: {} }, { status: 503, body: 'down' }, { status: 201, body: { id: 1 } });
      const acted: string[] = [];
      const c = once(acted);
      await expect(c.request({ method: 'POST', path: '/busy', json: {} })).resolves.toMatchObject({ status: 201 });
      expect(c.attempts).toBe(3);
      expect(acted).toEqual(['acted']);
      fake.on('GET', '/v1/read', { status: 500, body: {} }, { drop: true }, { status: 200, body: { ok: 1 } });
      const reads: string[] = [];
      await expect(once(reads).request({ method: 'GET', path: '/read' })).resolves.toMatchObject({ status: 200 });
      expect(reads).toEqual([]);
      const closed = `http://127.0.0.1:${await closedPort()}`;
      const refused = client({ idempotent: false, baseUrlOverride: closed, maxAttempts: 2 });
      await expect(refused.request({ method: 'POST', path: '/x', json: {} })).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true });
      expect(refused.attempts).toBe(2);
    });

    it('gives up a later request that was refused as outcome_unknown once an earlier one acted (the run would repeat both)', async () => {
      fake.on('POST', '/v1/create', { status: 201, body: { id: 1 } });
      fake.on('POST', '/v1/attach', { status: 429, headers: { 'retry-after': '0' }, body: {} });
      const c = client({ idempotent: false, maxAttempts: 2 });
      await c.request({ method: 'POST', path: '/create', json: {} });
      const err = await c.request({ method: 'POST', path: '/attach', json: {} }).catch((e: unknown) => e);
      expect(err).toMatchObject({ type: 'outcome_unknown', retryable: false, status: 429 });
      expect((err as Error).message).toMatch(/an earlier request of this action may have taken effect/);
      expect(fake.received('POST', '/v1/attach')).toHaveLength(2);
      const fresh = client({ idempotent: false, maxAttempts: 2 });
      await expect(fresh.request({ method: 'POST', path: '/attach', json: {} })).rejects.toMatchObject({ type: 'vendor_rate_limited', retryable: true });
    });

    it('is retried as before when the action is idempotent', async () => {
      fake.on('POST', '/v1/upsert', { status: 500, body: {} }, { status: 200, body: { ok: 1 } });
      const c = client();
      await expect(c.request({ method: 'POST', path: '/upsert', json: {} })).resolves.toMatchObject({ status: 200 });
      expect(c.attempts).toBe(2);
    });
  });
});

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
