import { bearerAuth } from '../auth';
import { defineIntegration, VendorError, type Connection } from '../define';
import addNote from './add-note';
import addTag from './add-tag';
import createContact from './create-contact';

const HOSTS: Record<string, string> = { us: 'https://api.intercom.io', eu: 'https://api.eu.intercom.io', au: 'https://api.au.intercom.io' };

/** The workspace's regional host (`settings.region`: us, eu or au; us when unset). */
export function intercomBaseUrl(conn: Connection): string {
  const host = HOSTS[conn.settings.region ?? 'us'];
  if (!host)
    throw new VendorError(
      'connection_incomplete',
      `the intercom connection's region must be one of ${Object.keys(HOSTS).join(', ')}; reconnect the integration`,
      false,
    );
  return host;
}

/** Intercom REST API 2.16 on the workspace's regional host, by an access token (or OAuth). */
export default defineIntegration({
  key: 'intercom',
  name: 'Intercom',
  auth: bearerAuth(['oauth2', 'api_key'], { tokenUrl: 'https://api.intercom.io/auth/eagle/token' }),
  baseUrl: intercomBaseUrl,
  apiDescription: 'intercom.json',
  headers: { 'intercom-version': '2.16' },
  actions: [createContact, addNote, addTag],
});
