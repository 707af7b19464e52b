import net from 'node:net';
import type { Config } from '../core/config';
import { endpointKey } from '../net/ssrf';

/**
 * The vendor sandbox as an exact `address:port` the outbound guard lets vendor requests reach: only outside production,
 * and only for a loopback IP literal (a name could resolve anywhere); [] otherwise.
 */
export function sandboxEndpoints(config: Pick<Config, 'NODE_ENV' | 'VENDOR_SANDBOX_URL'> | undefined): string[] {
  if (!config?.VENDOR_SANDBOX_URL || config.NODE_ENV === 'production') return [];
  const url = new URL(config.VENDOR_SANDBOX_URL);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = net.isIPv4(host) ? host.startsWith('127.') : host === '::1';
  return loopback ? [endpointKey(host, url.port, url.protocol)] : [];
}
