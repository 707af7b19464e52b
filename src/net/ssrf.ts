import dns from 'node:dns';
import net from 'node:net';

/**
 * allow (from SSRF_ALLOWLIST): the loopback and private addresses (RFC 1918, CGNAT, ULA…) that become reachable.
 * Link-local (cloud metadata), multicast and reserved addresses stay closed even when listed.
 */
export interface SsrfOptions {
  allow?: net.BlockList;
  /**
   * Exact `address:port` endpoints (IP literals) reachable whatever the address: the dev stack's vendor sandbox, so
   * the embedded default opens one listener instead of all of loopback.
   */
  endpoints?: string[];
}

/** `address:port` of a URL or connection (IPv6 without brackets; the scheme's default port when none is given). */
export function endpointKey(host: string, port: string, protocol: string): string {
  return `${host.replace(/^\[|\]$/g, '')}:${port || (protocol === 'https:' ? '443' : '80')}`;
}

/** Parses one CIDR (`127.0.0.1/8`, `fd00::/8`) or bare address (one host); undefined when it is neither. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', bits, extra] = text.trim().split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return undefined;
  const max = family === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return undefined;
  return { address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
}

/** The SSRF_ALLOWLIST ranges as a list the guard checks addresses against. */
export function ssrfAllowlist(cidrs: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (!parsed) throw new Error(`not a CIDR: ${cidr}`);
    list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

/** A URL or address the guard refuses; nothing was sent. */
export class BlockedAddressError extends Error {
  readonly code = 'ssrf_blocked';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

function blockList(v4: string[], v6: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

// Never reachable: unspecified, link-local (cloud metadata), multicast, reserved, documentation, Teredo, 6to4 relays.
const ALWAYS = blockList(
  ['0.0.0.0/8', '169.254.0.0/16', '192.0.2.0/24', '192.88.99.0/24', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'],
  ['::/128', 'fe80::/10', 'fec0::/10', 'ff00::/8', '100::/64', '2001::/32', '2001:db8::/32'],
);
// Reachable only when listed in SSRF_ALLOWLIST: loopback, private networks, carrier-grade NAT, benchmarking, IETF protocol assignments.
const PRIVATE = blockList(
  ['10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '172.16.0.0/12', '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15'],
  ['::1/128', 'fc00::/7', '64:ff9b:1::/48'],
);

/** The 8 hextets of an IPv6 address (accepts a trailing dotted IPv4 part). */
function hextets(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const b = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((h) => parseInt(h, 16));
}

/** The IPv4 address an IPv6 address carries (mapped, IPv4-compatible, NAT64, 6to4), if any. */
function embeddedV4(ip: string): string | undefined {
  const h = hextets(ip);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && h[5] === 0xffff) return v4(h[6]!, h[7]!);
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return v4(h[6]!, h[7]!); // IPv4-translated (::ffff:0:a.b.c.d, SIIT)
  if (zeros(0, 6) && h[6] !== 0) return v4(h[6]!, h[7]!); // IPv4-compatible (::a.b.c.d); not :: or ::1
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return v4(h[6]!, h[7]!);
  if (h[0] === 0x64 && h[1] === 0xff9b && h[2] === 1) return v4(h[6]!, h[7]!); // local-use NAT64 (64:ff9b:1::/48)
  if (h[0] === 0x2002) return v4(h[1]!, h[2]!);
  return undefined;
}

/** Why an IP address may not be contacted, or undefined when it may. Non-IP input is refused. */
export function addressProblem(ip: string, opts: SsrfOptions): string | undefined {
  const family = net.isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (family === 6) {
    const inner = embeddedV4(ip);
    if (inner !== undefined) {
      const problem = addressProblem(inner, opts);
      if (problem) return `${problem} (embedded in ${ip})`;
    }
  }
  if (ALWAYS.check(ip, type)) return `${ip} is a reserved, link-local or multicast address`;
  if (PRIVATE.check(ip, type) && !opts.allow?.check(ip, type)) return `${ip} is a private or loopback address (not in SSRF_ALLOWLIST)`;
  return undefined;
}

/** Parses and checks a user-supplied URL: http(s) only, no credentials, and an IP literal host must be allowed. */
export function checkUrl(input: string, opts: SsrfOptions): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new BlockedAddressError('not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedAddressError('only http and https URLs are allowed');
  if (url.username || url.password) throw new BlockedAddressError('credentials in URLs are not allowed');
  // WHATWG parsing has already turned encoded hosts (0x7f.1, 2130706433, %31…) into canonical addresses.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !opts.endpoints?.includes(endpointKey(host, url.port, url.protocol))) {
    const problem = addressProblem(host, opts);
    if (problem) throw new BlockedAddressError(problem);
  }
  return url;
}

/** A dns lookup for http.request that refuses a name when any address it resolves to is blocked (checked at connect time). */
export function guardedLookup(opts: SsrfOptions): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const blocked = addresses.map((a) => addressProblem(a.address, opts)).find(Boolean);
      if (blocked || addresses.length === 0) {
        return callback(new BlockedAddressError(`${hostname} resolves to a blocked address: ${blocked ?? 'none'}`), '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
