import { defineIntegration, VendorError, type Connection } from '../define';
import sendEmail from './send-email';

function basic(conn: Connection): string {
  const key = conn.secrets.api_key;
  if (!key) throw new VendorError('vendor_auth_failed', 'the mailgun connection holds no api_key; reconnect the integration', false);
  return `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
}

/** Mailgun (v3), by HTTP Basic `api:<key>`; EU domains (`settings.region = eu`) use api.eu.mailgun.net. */
export default defineIntegration({
  key: 'mailgun',
  name: 'Mailgun',
  auth: { kinds: ['api_key'], apply: (conn) => ({ headers: { authorization: basic(conn) } }) },
  baseUrl: (conn) => (conn.settings.region?.toLowerCase() === 'eu' ? 'https://api.eu.mailgun.net' : 'https://api.mailgun.net'),
  apiDescription: 'mailgun.json',
  actions: [sendEmail],
});
