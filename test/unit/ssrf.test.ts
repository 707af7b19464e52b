import fc from 'fast-check';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedOutboundRequest, ResponseTooLargeError } from '../../src/net/outbound';
import { addressProblem, BlockedAddressError, checkUrl, parseCidr, ssrfAllowlist } from '../../src/net/ssrf';

const strict = {};
// Everything a careless SSRF_ALLOWLIST could list, metadata and multicast included.
const loose = { allow: ssrfAllowlist(['0.0.0.0/0', '::/0']) };

// An independent oracle: the IPv4 ranges no webhook may reach by default ([first octets, prefix length]).
const BLOCKED_V4: [number[], number][] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 88, 99], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4],
];
const toInt = (o: number[]) => o.reduce((n, x) => n * 256 + x, 0);
const inRange = (ip: number, [octets, bits]: [number[], number]) => {
  const base = toInt([...octets, 0, 0, 0, 0].slice(0, 4));
  return Math.floor(ip / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));
};
const dotted = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
const hex4 = (n: number) => `${((n >>> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}`;

const blockedV4 = fc.constantFrom(...BLOCKED_V4).chain(([octets, bits]) => {
  const base = toInt([...octets, 0, 0, 0, 0].slice(0, 4));
  return fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((h) => (Math.floor(base / 2 ** (32 - bits)) * 2 ** (32 - bits) + h) >>> 0);
});
const publicV4 = fc.integer({ min: 0, max: 2 ** 32 - 1 }).filter((n) => !BLOCKED_V4.some((r) => inRange(n, r)));

describe('SSRF guard: addresses', () => {
  it('blocks every address in a private, loopback, link-local or reserved IPv4 range', () => {
    fc.assert(
      fc.property(blockedV4, (n) => addressProblem(dotted(n), strict) !== undefined),
      { numRuns: 2000 },
    );
  });

  it('blocks the same addresses wrapped in IPv6 (mapped, compatible, NAT64, 6to4)', () => {
    fc.assert(
      fc.property(blockedV4, (n) =>
        [`::ffff:${dotted(n)}`, `::ffff:${hex4(n)}`, `64:ff9b::${hex4(n)}`, `2002:${hex4(n)}::1`].every((ip) => addressProblem(ip, strict) !== undefined),
      ),
      { numRuns: 1000 },
    );
  });

  it('lets public IPv4 addresses through, bare or IPv4-mapped', () => {
    fc.assert(
      fc.property(publicV4, (n) => addressProblem(dotted(n), strict) === undefined && addressProblem(`::ffff:${dotted(n)}`, strict) === undefined),
      {
        numRuns: 2000,
      },
    );
  });

  it.each(['::1', '::', 'fe80::1', 'fe80::abcd:1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', 'fec0::1'])('blocks IPv6 %s', (ip) => {
    expect(addressProblem(ip, strict)).toBeDefined();
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('lets public IPv6 %s through', (ip) => {
    expect(addressProblem(ip, strict)).toBeUndefined();
  });

  it('opens exactly the listed ranges of SSRF_ALLOWLIST', () => {
    const opts = { allow: ssrfAllowlist(['127.0.0.1/32', '10.1.0.0/16', 'fd00::/8']) };
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '10.1.255.3', 'fd12::1']) expect(addressProblem(ip, opts)).toBeUndefined();
    for (const ip of ['127.0.0.2', '10.2.0.1', '192.168.1.1', '::1', 'fc00::1']) expect(addressProblem(ip, opts)).toMatch(/not in SSRF_ALLOWLIST/);
  });

  it.each([
    ['127.0.0.1/8', { address: '127.0.0.1', prefix: 8, family: 'ipv4' }],
    ['10.0.0.7', { address: '10.0.0.7', prefix: 32, family: 'ipv4' }],
    [' fd00::/8 ', { address: 'fd00::', prefix: 8, family: 'ipv6' }],
  ])('parses the CIDR %j', (text, parsed) => {
    expect(parseCidr(text)).toEqual(parsed);
  });

  it.each(['127.0.0.1/33', '::1/129', '10.0.0.0/-1', '10.0.0.0/8/8', '10.0.0/8', 'localhost', '', '1.2.3.4/ 8', '1.2.3.4/0x8'])(
    'refuses the CIDR %j',
    (text) => {
      expect(parseCidr(text)).toBeUndefined();
      expect(() => ssrfAllowlist([text])).toThrow(/not a CIDR/);
    },
  );

  it('with everything listed, opens loopback and private ranges only', () => {
    for (const ip of ['127.0.0.1', '10.0.0.5', '192.168.1.1', '::1', 'fd00::1', '::ffff:127.0.0.1']) expect(addressProblem(ip, loose)).toBeUndefined();
    for (const ip of ['169.254.169.254', '0.0.0.0', '224.0.0.1', 'fe80::1', '::', '::ffff:169.254.169.254']) expect(addressProblem(ip, loose)).toBeDefined();
  });
});

describe('SSRF guard: URLs', () => {
  it('refuses encoded forms of a blocked IPv4 address (decimal, hex, octal, short, percent-encoded, IPv6-mapped)', () => {
    fc.assert(
      fc.property(blockedV4, (n) => {
        const o = [24, 16, 8, 0].map((s) => (n >>> s) & 255);
        const forms = [
          String(n),
          `0x${n.toString(16)}`,
          `0${n.toString(8)}`,
          o.map((x) => `0x${x.toString(16)}`).join('.'),
          o.map((x) => `0${x.toString(8)}`).join('.'),
          `${o[0]}.${(o[1]! << 16) | (o[2]! << 8) | o[3]!}`,
          [...dotted(n)].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
          `[::ffff:${dotted(n)}]`,
        ];
        return forms.every((host) => {
          try {
            checkUrl(`http://${host}:8080/hook`, strict);
            return false;
          } catch (err) {
            return err instanceof BlockedAddressError;
          }
        });
      }),
      { numRuns: 500 },
    );
  });

  it.each(['file:///etc/passwd', 'gopher://127.0.0.1/', 'ftp://example.com/', 'http://user:pw@example.com/', 'not a url'])('refuses %s', (url) => {
    expect(() => checkUrl(url, strict)).toThrow(BlockedAddressError);
  });

  it('accepts a public name (checked again at connect time) and a public address', () => {
    expect(checkUrl('https://hooks.example.com/x?y=1', strict).hostname).toBe('hooks.example.com');
    expect(checkUrl('http://8.8.8.8/', strict).hostname).toBe('8.8.8.8');
  });
});

describe('SSRF guard: requests', () => {
  let server: http.Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      res.end(req.url === '/big' ? 'x'.repeat(5000) : 'ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = (url: string, opts = strict) => guardedOutboundRequest(url, { method: 'GET', headers: {}, timeoutMs: 2000 }, opts);

  it('refuses a name that resolves to loopback before connecting (DNS is checked, not just the text)', async () => {
    const before = hits;
    await expect(get(`http://localhost:${port}/`)).rejects.toThrow(/resolves to a blocked address/);
    await expect(get(`http://127.0.0.1:${port}/`)).rejects.toThrow(BlockedAddressError);
    expect(hits).toBe(before);
  });

  it('reaches loopback when private targets are allowed', async () => {
    const res = await get(`http://localhost:${port}/`, loose);
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
  });

  it('fails a body over maxResponseBytes, or keeps its start with truncateResponse (webhook receivers)', async () => {
    const big = (truncateResponse: boolean) =>
      guardedOutboundRequest(`http://127.0.0.1:${port}/big`, { method: 'GET', timeoutMs: 2000, maxResponseBytes: 1024, truncateResponse }, loose);
    await expect(big(false)).rejects.toBeInstanceOf(ResponseTooLargeError);
    const res = await big(true);
    expect([res.status, res.body]).toEqual([200, 'x'.repeat(1024)]);
  });
});
