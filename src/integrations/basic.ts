import { VendorError, type Connection } from './define';

/** `Authorization: Basic` from a connection's user and secret (first secret name present of each list), or a reconnect error. */
export function basicHeader(conn: Connection, userKeys: string[], secretKeys: string[]): string {
  const user = userKeys.map((k) => conn.secrets[k]).find((v) => v);
  const secret = secretKeys.map((k) => conn.secrets[k]).find((v) => v);
  if (!user || !secret)
    throw new VendorError(
      'vendor_auth_failed',
      `the ${conn.integration} connection lacks its ${userKeys[0]} or ${secretKeys[0]}; reconnect the integration`,
      false,
    );
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}
