import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

const none: Connection = { id: null, integration: 'proxy', kind: 'none', secrets: {}, settings: {} };

// The proxy calls arbitrary URLs: no vendor description applies; the requests are checked field by field.
describe('proxy', () => {
  let fake: VendorFake;
  const run = (params: Record<string, unknown>, allow = ['127.0.0.1/8']) =>
    runIntegrationAction({ integration: 'proxy', params, connection: none, idempotencyKey: 'req-1', ssrfAllowlist: allow, http: { sleep: async () => {} } });

  beforeAll(async () => {
    fake = await startVendorFake();
    fake.on('POST', '/hook', { status: 201, body: { received: true } });
    fake.on('GET', '/text', { status: 200, body: 'plain words' });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('runs without an action name: JSON body, bearer auth and custom headers', async () => {
    const out = await run({
      apiMethod: 'POST',
      apiURL: `${fake.url}/hook?x=1`,
      authenticationSelect: 'bearer',
      bearerToken: 'tok',
      enableHeaders: true,
      headers: [{ name: 'X-Trace', value: 'abc' }],
      requestBodyJson: { a: 1 },
    });
    expect(out).toMatchObject({ action: 'request', attempts: 1, data: { status: 201, body: { received: true } } });
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/hook', query: { x: '1' }, body: { a: 1 } });
    expect(req!.headers).toMatchObject({ authorization: 'Bearer tok', 'x-trace': 'abc', 'content-type': 'application/json' });
  });

  it('sends basic auth, an API-key header and raw bodies with their content type; headers are ignored unless enabled', async () => {
    await run({
      apiMethod: 'POST',
      apiURL: `${fake.url}/hook`,
      authenticationSelect: 'basic',
      basicUsername: 'u',
      basicPassword: 'p',
      contentType: 'text/plain',
      requestBody: 'hello',
      headers: [{ name: 'X-No', value: '1' }],
    });
    await run({
      apiMethod: 'POST',
      apiURL: `${fake.url}/hook`,
      authenticationSelect: 'apiKey',
      apiKeyHeader: 'X-Api-Key',
      apiKey: 'k1',
      contentType: 'application/x-www-form-urlencoded',
      requestBody: 'a=1&b=2',
    });
    expect(fake.requests[0]!.headers).toMatchObject({ authorization: `Basic ${Buffer.from('u:p').toString('base64')}`, 'content-type': 'text/plain' });
    expect(fake.requests[0]!.headers['x-no']).toBeUndefined();
    expect(fake.requests[0]!.rawBody).toBe('hello');
    expect(fake.requests[1]!.headers['x-api-key']).toBe('k1');
    expect(fake.requests[1]!.body).toEqual({ a: '1', b: '2' });
  });

  it('returns text responses as text', async () => {
    await expect(run({ apiURL: `${fake.url}/text`, responseType: 'text' })).resolves.toMatchObject({ data: { status: 200, body: 'plain words' } });
  });

  it('refuses private, link-local and encoded addresses before sending', async () => {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://169.254.169.254/latest',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost/',
    ]) {
      await expect(run({ apiURL: url }, [])).rejects.toMatchObject({ type: 'ssrf_blocked', retryable: false });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('validates its params with field paths', async () => {
    await expect(run({ apiURL: 'ftp://x', apiMethod: 'FETCH', authenticationSelect: 'bearer', timeoutMs: 1 })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^apiURL:/), expect.stringMatching(/^apiMethod:/), expect.stringMatching(/^timeoutMs:/)]),
    });
  });
});
