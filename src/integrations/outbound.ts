import { Agent, type Dispatcher } from 'undici';
import { checkUrl, guardedLookup, ssrfAllowlist, type SsrfOptions } from '../net/ssrf';

/**
 * The one place vendor requests get their SSRF-guarded dispatcher: the URL is checked before connecting (IP literals,
 * schemes, credentials) and every DNS answer is checked at connect time. Dispatchers are cached per allowlist.
 */
const dispatchers = new Map<string, Dispatcher>();

/** The guard options for a list of SSRF_ALLOWLIST CIDRs. */
export function ssrfOptions(allowlist: string[] | undefined): SsrfOptions {
  return allowlist && allowlist.length > 0 ? { allow: ssrfAllowlist(allowlist) } : {};
}

/** Refuses a URL the guard blocks (BlockedAddressError); returns it parsed. */
export function checkOutboundUrl(url: string, allowlist: string[] | undefined): URL {
  return checkUrl(url, ssrfOptions(allowlist));
}

/** An undici dispatcher whose connections only reach addresses the guard allows. */
export function outboundDispatcher(allowlist: string[] | undefined): Dispatcher {
  const key = (allowlist ?? []).join(',');
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    dispatcher = new Agent({ connect: { lookup: guardedLookup(ssrfOptions(allowlist)) }, keepAliveTimeout: 4_000 });
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}
