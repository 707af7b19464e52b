import { basicAuthorization, requiredSecret, requiredSetting, SUBDOMAIN } from '../connection-settings';
import { defineIntegration, type Connection } from '../define';
import addNote from './add-note';
import createContact from './create-contact';
import createTicket from './create-ticket';

/** The helpdesk's host, `https://<domain>.freshdesk.com`. */
export function freshdeskBaseUrl(conn: Connection): string {
  return `https://${requiredSetting(conn, ['domain', 'subdomain'], SUBDOMAIN, 'the Freshdesk domain (the part before .freshdesk.com)')}.freshdesk.com`;
}

/** Freshdesk API v2 on the helpdesk's domain: the API key as the Basic username with the password `X`. */
export default defineIntegration({
  key: 'freshdesk',
  name: 'Freshdesk',
  auth: {
    kinds: ['api_key'],
    apply: (conn) => ({ headers: { authorization: basicAuthorization(requiredSecret(conn, 'api_key'), 'X') } }),
  },
  baseUrl: freshdeskBaseUrl,
  actions: [createTicket, addNote, createContact],
});
