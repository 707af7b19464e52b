import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { guardedDispatcher, outboundRequest } from '../../src/net/outbound';
import { BlockedAddressError, checkUrl } from '../../src/net/ssrf';

// Hosts that all mean a loopback, private, link-local or otherwise closed address, in the encodings attackers use.
const BLOCKED = [
  'http://127.0.0.1/',
  'http://127.1/', // short form
  'http://127.0.1/',
  'http://2130706433/', // decimal
  'http://0x7f000001/', // hex
  'http://0x7f.0x0.0x0.0x1/',
  'http://0177.0.0.1/', // octal
  'http://0177.00.00.01/',
  'http://017700000001/',
  'http://0x7f.1/', // mixed
  'http://127.0.0.1./', // trailing dot
  'http://%31%32%37.0.0.1/', // percent-encoded
  'http://127。0。0。1/', // ideographic full stops
  'http://０x7f.1/', // fullwidth digits
  'http://0/',
  'http://0.0.0.0/',
  'http://[::]/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[::ffff:0:7f00:1]/', // IPv4-translated
  'http://[::127.0.0.1]/', // IPv4-compatible
  'http://[64:ff9b::7f00:1]/', // NAT64
  'http://[64:ff9b:1::a00:1]/', // local-use NAT64
  'http://[2002:7f00:1::1]/', // 6to4
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[ff02::1]/',
  'http://10.0.0.1/',
  'http://10.1/',
  'http://167772161/', // 10.0.0.1 in decimal
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.0.1/',
  'http://0xc0a80001/',
  'http://100.64.0.1/', // carrier-grade NAT
  'http://169.254.169.254/latest/meta-data/', // cloud metadata
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://198.18.0.1/',
];

const PUBLIC = ['http://93.184.215.14/', 'http://1.1.1.1/', 'http://[2606:4700:4700::1111]/', 'https://example.com/', 'http://8.8.8.8:8080/x?y=1', 'http://0x08080808/'];

const REFUSED_FORMS = ['ftp://1.1.1.1/', 'file:///etc/passwd', 'gopher://1.1.1.1/', 'http://user:pw@1.1.1.1/', 'javascript:alert(1)', 'not a url', 'http://[::1/'];

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
  const get = (url: string, maxRedirects = 5, headers: Record<string, string> = {}) => outboundRequest(url, { method: 'GET', timeoutMs: 5_000, maxRedirects, headers }, allow);

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
