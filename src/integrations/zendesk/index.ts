import { bearerToken } from '../auth';
import { basicAuthorization, requiredSecret, requiredSetting, SUBDOMAIN } from '../connection-settings';
import { defineIntegration, type Connection } from '../define';
import addComment from './add-comment';
import createTicket from './create-ticket';
import upsertUser from './upsert-user';

/** The account's host, `https://<subdomain>.zendesk.com`. */
export function zendeskBaseUrl(conn: Connection): string {
  return `https://${requiredSetting(conn, ['subdomain'], SUBDOMAIN, 'the Zendesk subdomain')}.zendesk.com`;
}

/** An API token is sent as Basic `<agent email>/token:<api token>`; OAuth as Bearer. */
function authorization(conn: Connection): string {
  if (conn.kind === 'oauth2') return `Bearer ${bearerToken(conn)}`;
  const email = requiredSetting(conn, ['email'], /^[^\s@]+@[^\s@]+$/, "the agent's email");
  return basicAuthorization(`${email}/token`, requiredSecret(conn, 'api_key'));
}

/** Zendesk Support (Ticketing API v2) on the account's subdomain. */
export default defineIntegration({
  key: 'zendesk',
  name: 'Zendesk',
  auth: { kinds: ['api_key', 'oauth2'], apply: (conn) => ({ headers: { authorization: authorization(conn) } }) },
  baseUrl: zendeskBaseUrl,
  actions: [createTicket, addComment, upsertUser],
});
