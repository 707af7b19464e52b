import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { guardedDispatcher, outboundRequest } from '../../src/net/outbound';
import { BlockedAddressError, checkUrl } from '../../src/net/ssrf';
import { BLOCKED, PUBLIC, REFUSED_FORMS } from '../helpers/ssrf-corpus';

describe('outbound guard corpus', () => {
  it(`has at least 30 blocked addresses and encodings (${BLOCKED.length})`, () => {
    expect(BLOCKED.length).toBeGreaterThanOrEqual(30);
  });

  it.each(BLOCKED)('blocks %s before connecting', (url) => {
    expect(() => checkUrl(url, {})).toThrow(BlockedAddressError);
  });

  it.each(PUBLIC)('lets %s through', (url) => {
    expect(checkUrl(url, {}).protocol).toMatch(/^https?:$/);
  });

  it.each(REFUSED_FORMS)('refuses %s', (url) => {
    expect(() => checkUrl(url, {})).toThrow(BlockedAddressError);
  });
});

describe('guarded requests', () => {
  let hits: string[];
  let a: Server;
  let b: Server;
  let aPort: number;
  let bPort: number;

  beforeAll(async () => {
    hits = [];
    // b listens on 127.0.0.2: loopback too, but outside the allowlist the tests give (127.0.0.1/32).
    b = createServer((req, res) => {
      hits.push(`b ${req.url}`);
      res.end('private');
    });
    a = createServer((req, res) => {
      hits.push(`a ${req.url}`);
      const to = new URL(req.url!, 'http://x').searchParams.get('to');
      if (to) {
        res.statusCode = 302;
        res.setHeader('location', to);
        return res.end();
      }
      res.end(`ok ${req.headers.authorization ?? ''}`);
    });
    await new Promise<void>((r) => a.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => b.listen(0, '127.0.0.2', r));
    aPort = (a.address() as AddressInfo).port;
    bPort = (b.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => a.close(r));
    await new Promise((r) => b.close(r));
  });
  beforeEach(() => {
    hits.length = 0;
  });

  const allow = ['127.0.0.1/32'];
  const get = (url: string, maxRedirects = 5, headers: Record<string, string> = {}) =>
    outboundRequest(url, { method: 'GET', timeoutMs: 5_000, maxRedirects, headers }, allow);

  it('reaches an allowed address and follows a redirect that stays allowed', async () => {
    expect((await get(`http://127.0.0.1:${aPort}/plain`)).body).toBe('ok ');
    const res = await get(`http://127.0.0.1:${aPort}/r?to=${encodeURIComponent(`http://127.0.0.1:${aPort}/landed`)}`);
    expect(res).toMatchObject({ status: 200, url: `http://127.0.0.1:${aPort}/landed` });
    expect(hits).toEqual(['a /plain', 'a /r?to=' + encodeURIComponent(`http://127.0.0.1:${aPort}/landed`), 'a /landed']);
  });

  it.each([
    (p: number) => `http://127.0.0.2:${p}/secret`,
    (p: number) => `http://0x7f000002:${p}/secret`,
    (p: number) => `http://[::ffff:127.0.0.2]:${p}/secret`,
    () => 'http://169.254.169.254/latest/meta-data/',
  ])('refuses a redirect to a private address (%#) and never contacts it', async (target) => {
    const to = target(bPort);
    await expect(get(`http://127.0.0.1:${aPort}/r?to=${encodeURIComponent(to)}`)).rejects.toThrow(BlockedAddressError);
    expect(hits.filter((h) => h.startsWith('b'))).toEqual([]);
  });

  it('without redirects allowed, a 3xx is the answer', async () => {
    const res = await get(`http://127.0.0.1:${aPort}/r?to=${encodeURIComponent(`http://127.0.0.2:${bPort}/`)}`, 0);
    expect(res.status).toBe(302);
    expect(hits).toHaveLength(1);
  });

  it('drops credentials on a redirect to another origin', async () => {
    const other = createServer((req, res) => res.end(`auth=${req.headers.authorization ?? 'none'}`));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const port = (other.address() as AddressInfo).port;
      const res = await get(`http://127.0.0.1:${aPort}/r?to=${encodeURIComponent(`http://127.0.0.1:${port}/`)}`, 5, { authorization: 'Bearer t' });
      expect(res.body).toBe('auth=none');
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('checks DNS answers at connect time: a name resolving to a blocked address is refused', async () => {
    await expect(outboundRequest(`http://localhost:${aPort}/`, { method: 'GET', timeoutMs: 5_000 }, [])).rejects.toThrow(/resolves to a blocked address/);
    expect(hits).toEqual([]);
  });

  it('the dispatcher alone refuses blocked literals, whoever forgot to check the URL', async () => {
    await expect(request(`http://127.0.0.2:${bPort}/`, { dispatcher: guardedDispatcher(allow) })).rejects.toThrow(/private or loopback/);
    await expect(request(`http://127.0.0.1:${aPort}/`, { dispatcher: guardedDispatcher([]) })).rejects.toThrow(/private or loopback/);
    expect(hits).toEqual([]);
    expect((await request(`http://127.0.0.1:${aPort}/`, { dispatcher: guardedDispatcher(allow) })).statusCode).toBe(200);
  });
});
