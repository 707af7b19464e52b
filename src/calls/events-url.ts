import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { addressProblem, BlockedAddressError, checkUrl, type SsrfOptions } from '../net/ssrf';

/**
 * Checks a subscription URL when it is saved: http(s), no credentials, and every address its host resolves to is
 * public or in SSRF_ALLOWLIST. Throws BlockedAddressError with the reason. (Deliveries check again at connect time.)
 */
export async function checkSubscriptionUrl(input: string, opts: SsrfOptions): Promise<URL> {
  const url = checkUrl(input, opts);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return url;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw new BlockedAddressError(`${host} does not resolve`);
  }
  const problem = addresses.map((a) => addressProblem(a.address, opts)).find(Boolean);
  if (problem || addresses.length === 0) throw new BlockedAddressError(`${host} resolves to a blocked address: ${problem ?? 'none'}`);
  return url;
}
