import { bearerToken } from '../auth';
import { basicAuthorization, requiredSecret } from '../connection-settings';
import { defineIntegration, VendorError, type Connection } from '../define';
import addNote from './add-note';
import addTags from './add-tags';
import upsertMember from './upsert-member';

/** The account's data centre: `settings.dc` (OAuth metadata), else the API key's suffix (`…-us6`). */
export function mailchimpBaseUrl(conn: Connection): string {
  const dc = conn.settings.dc ?? (conn.kind === 'api_key' ? /-([a-z]+\d+)$/.exec(conn.secrets.api_key ?? '')?.[1] : undefined);
  if (!dc || !/^[a-z]+\d+$/.test(dc)) {
    throw new VendorError(
      'connection_incomplete',
      'the mailchimp connection needs its data centre (settings.dc, or an API key ending in -us6 etc.); reconnect the integration',
      false,
    );
  }
  return `https://${dc}.api.mailchimp.com`;
}

/** Mailchimp Marketing API 3.0 on the account's data-centre host: API key by Basic auth, or OAuth. */
export default defineIntegration({
  key: 'mailchimp',
  name: 'Mailchimp',
  auth: {
    kinds: ['api_key', 'oauth2'],
    oauth2: { tokenUrl: 'https://login.mailchimp.com/oauth2/token' },
    apply: (conn) => ({
      headers: { authorization: conn.kind === 'oauth2' ? `Bearer ${bearerToken(conn)}` : basicAuthorization('switchboard', requiredSecret(conn, 'api_key')) },
    }),
  },
  baseUrl: mailchimpBaseUrl,
  actions: [upsertMember, addTags, addNote],
});
