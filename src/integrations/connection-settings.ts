import { VendorError, type Connection } from './define';

/** A connection setting the integration cannot run without; missing or malformed → a non-retryable failure asking to reconnect. */
export function requiredSetting(conn: Connection, names: string[], pattern: RegExp, what: string): string {
  const value = names.map((n) => conn.settings[n]).find((v) => typeof v === 'string' && v !== '');
  if (value === undefined) {
    throw new VendorError('connection_incomplete', `the ${conn.integration} connection needs settings.${names[0]} (${what}); reconnect the integration`, false);
  }
  if (!pattern.test(value)) {
    throw new VendorError(
      'connection_incomplete',
      `the ${conn.integration} connection's settings.${names[0]} is not ${what}; reconnect the integration`,
      false,
    );
  }
  return value;
}

/** An account subdomain as vendors issue them (one DNS label). */
export const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An http(s) origin held by a connection (Salesforce instance_url, an account URL); the SSRF guard still checks it. */
export function originSetting(conn: Connection, names: string[], what: string): string {
  const raw = requiredSetting(conn, names, /^https?:\/\/[^\s/?#]+\/?$/i, `${what} (an https origin)`);
  return raw.replace(/\/+$/, '');
}

/** A connection secret the auth needs; missing → a failure asking to reconnect. */
export function requiredSecret(conn: Connection, name: string): string {
  const value = conn.secrets[name];
  if (!value) throw new VendorError('vendor_auth_failed', `the ${conn.integration} connection holds no ${name}; reconnect the integration`, false);
  return value;
}

/** An HTTP Basic Authorization header value. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}
