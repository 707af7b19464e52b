import { request as httpRequest } from 'node:http';
import { rawRequest } from '../helpers/raw-http';
import { startTestApp, type TestApp } from '../helpers/stack';

// Issue 9 §2: every way a client can reach the server; no client mistake gets a 5xx, no error body leaves the shape.
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newWorkspace()).apiKey;
});
afterAll(() => app.close());

function expectShape(status: number, body: unknown, expected: number): void {
  expect({ status, body }).toEqual({ status: expected, body: { status: 'failed', message: expect.any(String) } });
  expect(Object.keys(body as object).sort()).toEqual(['message', 'status']);
}

/** node:http, because fetch refuses TRACE and friends. */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(app.url + path, { method, headers: { authorization: `Bearer ${key}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const parsed = (text: string) => JSON.parse(text) as unknown;

describe('methods a route does not serve', () => {
  it.each([
    ['TRACE', '/v1/lead/create', 'POST'],
    ['PUT', '/v1/lead/create', 'POST'],
    ['GET', '/v1/lead/update', 'PATCH'],
    ['POST', '/v1/lead/get', 'GET'],
    ['PROPFIND', '/v1/lead/tag', 'DELETE'],
    ['DELETE', '/v1/openapi.json', 'GET'],
    ['POST', '/healthz', 'GET'],
  ])('%s %s → 405 with Allow naming %s, in the error shape', async (method, path, allowed) => {
    const res = await send(method, path);
    expectShape(res.status, parsed(res.text), 405);
    expect(String(res.headers.allow).split(', ')).toContain(allowed);
  });

  it('HEAD on a POST route is a 405 with Allow and no body', async () => {
    const res = await send('HEAD', '/v1/lead/create');
    expect([res.status, String(res.headers.allow), res.text]).toEqual([405, 'POST, OPTIONS', '']);
  });

  it('OPTIONS answers 204 with Allow', async () => {
    const res = await send('OPTIONS', '/v1/lead/tag');
    expect([res.status, String(res.headers.allow).split(', ').sort()]).toEqual([204, ['DELETE', 'OPTIONS', 'PATCH']]);
  });

  it('an unknown path is a 404 in the shape whatever the method', async () => {
    for (const method of ['TRACE', 'GET', 'PUT']) {
      const res = await send(method, '/v1/no/such/route');
      expectShape(res.status, parsed(res.text), 404);
    }
  });
});

describe('bodies and content types', () => {
  const create = (body: string, contentType?: string) => send('POST', '/v1/lead/create', contentType ? { 'content-type': contentType } : {}, body);

  it.each([
    ['not JSON', '{"phone": ', 'application/json', 400],
    ['JSON with a BOM', '\ufeff{"phone":"17145551234"}', 'application/json', 400],
    ['a JSON array', '[1,2,3]', 'application/json', 400],
    ['a JSON string', '"x"', 'application/json', 400],
    ['text/plain', '{"phone":"17145551234"}', 'text/plain', 415],
    ['form-encoded', 'phone=17145551234', 'application/x-www-form-urlencoded', 415],
    ['no content type', '{"phone":"17145551234"}', undefined, 415],
    ['a garbage content type', '{"phone":"17145551234"}', '%%%/;;;', 415],
    ['nested 100 000 levels deep', '['.repeat(100_000) + ']'.repeat(100_000), 'application/json', 400],
    ['nested objects in a standard field', `{"phone":"17145551234","first_name":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`, 'application/json', 400],
  ])('%s: a client error in the shape', async (_what, body, type, status) => {
    const res = await create(body, type);
    expectShape(res.status, parsed(res.text), status);
  });

  it('a body over 1 MiB → 413 (declared length and chunked)', async () => {
    const big = JSON.stringify({ phone: '17145551234', first_name: 'x'.repeat(1_100_000) });
    const declared = await create(big, 'application/json');
    expectShape(declared.status, parsed(declared.text), 413);
    const chunked = await send('POST', '/v1/lead/create', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, big);
    expectShape(chunked.status, parsed(chunked.text), 413);
  });

  it('a broken chunked body → 400 in the shape', async () => {
    const res = await rawRequest(
      app.url,
      `POST /v1/lead/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expectShape(res.status, parsed(res.body), 400);
  });
});

// Issue 22 §7: bodies nested 10,000 deep answered 500 (a RangeError in code walking them) and 503 on the automation route.
describe('bodies nested deeper than 64 levels', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const json = { 'content-type': 'application/json' };

  it.each([
    ['/v1/agent request_data', '/v1/agent', (d: string) => `{"agent":"a1","phone":"17145550001","request_data":${d}}`],
    ['/v1/journeys steps', '/v1/journeys', (d: string) => `{"name":"deep","steps":${d}}`],
    [
      '/v1/journeys a webhook payload',
      '/v1/journeys',
      (d: string) => `{"name":"deep","steps":[{"id":"w","kind":"webhook","url":"https://example.com/h","payload":{"x":${d}}}]}`,
    ],
  ])('%s → 400 naming the limit', async (_what, path, body) => {
    const res = await send('POST', path, json, body(deep(10_000)));
    expectShape(res.status, parsed(res.text), 400);
    expect(parsed(res.text)).toEqual({ status: 'failed', message: 'Request body is nested more than 64 levels deep' });
  });

  it('the automation route → 400 in its envelope, not 503', async () => {
    const { superuserKey } = await app.newWorkspace({ superuser: true });
    const body = `{"automationType":"proxy","nodeParams":{"params":{"apiMethod":"POST","apiURL":"https://example.com","requestBodyJson":${deep(10_000)}}}}`;
    const res = await send('POST', '/api/automation/execute', { ...json, 'x-key': superuserKey, authorization: '' }, body);
    expect(res.status).toBe(400);
    expect(parsed(res.text)).toMatchObject({ success: false, error: 'Request body is nested more than 64 levels deep' });
  });

  it('64 levels pass the parser (the route answers on its own terms); 65 do not', async () => {
    // The body object is one level, request_data the rest; brackets inside strings do not count.
    const body = (levels: number) => `{"agent":"no-such-agent","phone":"17145550001","request_data":["[[[{",${deep(levels - 2)}]}`;
    const within = await send('POST', '/v1/agent', json, body(64));
    expect([within.status, parsed(within.text)]).toEqual([404, { status: 'failed', message: 'Invalid agent' }]);
    const over = await send('POST', '/v1/agent', json, body(65));
    expectShape(over.status, parsed(over.text), 400);
  });
});

describe('requests Node rejects before the app', () => {
  it.each([
    ['oversized headers', `GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['an oversized URL', `GET /v1/lead/get?phone=${'1'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ['a garbage request line', 'HELLO THERE\r\n\r\n', 400],
    ['an unknown method token', 'FROB /v1/me HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a control character in a header', 'GET /v1/me HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', 400],
    ['a malformed Content-Length', 'POST /v1/lead/create HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n{}', 400],
    ['two different Content-Lengths', 'POST /v1/lead/create HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', 400],
    ['a space inside the path', 'GET /v1/m e HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ])('%s: a client error in the shape', async (_what, raw, status) => {
    const res = await rawRequest(app.url, raw);
    expectShape(res.status, parsed(res.body), status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('encoded garbage in paths and query strings', () => {
  it.each([
    '/v1/lead/get?phone=%ZZ',
    '/v1/lead/get?phone=%',
    '/v1/lead/get?phone=%00',
    '/v1/lead/get?phone=1714555%001234',
    '/v1/lead/get?lead_id=%C0%AE%C0%AE',
    '/v1/lead/get?phone=%ED%A0%80',
    '/v1/lead/get?phone=%F0%9F%92%A5',
    '/v1/lead/get?phone[]=1&phone[]=2',
    '/v1/lead/get?phone=1&phone=2',
    '/v1/lead/get?%ZZ=1',
    '/v1/lead/get?lead_id=00000000-0000-0000-0000-00000000000%00',
    '/v1/lead/enrollments?lead_id=%ZZ',
    '/v1/lead/tag?lead_id=%00&tag=%00',
    '/v1/%ZZ',
    '/v1/lead/get%00',
    '/v1/lead%2Fget',
    '/v1/%C0%AE%C0%AE/me',
    '/%2e%2e/%2e%2e/etc/passwd',
  ])('%s → 4xx in the shape', async (path) => {
    const method = path.startsWith('/v1/lead/tag') ? 'DELETE' : 'GET';
    const res = await send(method, path);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expectShape(res.status, parsed(res.text), res.status);
  });
});
