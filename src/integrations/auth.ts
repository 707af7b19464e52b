import { VendorError, type AuthSpec, type Connection, type ConnectionKind } from './define';

/** The connection's bearer token: an OAuth access token, else an API key (or bot token). */
export function bearerToken(conn: Connection): string {
  const token = conn.secrets.access_token ?? conn.secrets.api_key ?? conn.secrets.token;
  if (!token) throw new VendorError('vendor_auth_failed', `the ${conn.integration} connection holds no token; reconnect the integration`, false);
  return token;
}

/** Auth by `Authorization: Bearer <token>` for the given connection kinds. */
export function bearerAuth(kinds: ConnectionKind[], oauth2?: AuthSpec['oauth2']): AuthSpec {
  return { kinds, ...(oauth2 ? { oauth2 } : {}), apply: (conn) => ({ headers: { authorization: `Bearer ${bearerToken(conn)}` } }) };
}

/** No auth: the integration needs no connection (the proxy carries its own credentials in its params). */
export const noAuth: AuthSpec = { kinds: ['none'], apply: () => ({}) };
