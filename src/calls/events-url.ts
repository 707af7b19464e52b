import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { addressProblem, BlockedAddressError, checkUrl, type SsrfOptions } from '../net/ssrf';

const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * Checks a subscription URL when it is saved: http(s), no credentials, and every address its host resolves to is
 * public or in SSRF_ALLOWLIST (a host that does not resolve passes). Throws BlockedAddressError with the reason;
 * deliveries check again at connect time.
 */
export async function checkSubscriptionUrl(input: string, opts: SsrfOptions): Promise<URL> {
  const url = checkUrl(input, opts);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return url;
  let addresses: { address: string }[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // A resolver that never answers must not hold the request: past the limit it counts as not resolving.
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS)));
    addresses = await Promise.race([lookup(host, { all: true }), late]);
  } catch {
    // Not resolvable now (no DNS here, or not yet): nothing to judge; every delivery checks again at connect time.
    return url;
  } finally {
    clearTimeout(timer);
  }
  const problem = addresses.map((a) => addressProblem(a.address, opts)).find(Boolean);
  if (problem || addresses.length === 0) throw new BlockedAddressError(`${host} resolves to a blocked address: ${problem ?? 'none'}`);
  return url;
}
