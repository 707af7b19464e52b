import { originSetting, requiredSecret, SUBDOMAIN } from '../connection-settings';
import { defineIntegration, type Connection } from '../define';
import addNote from './add-note';
import addTag from './add-tag';
import addToList from './add-to-list';
import syncContact from './sync-contact';

/** The account's API host: `settings.account_url` (Settings › Developer), else `https://<account>.api-us1.com`. */
export function activecampaignBaseUrl(conn: Connection): string {
  const account = conn.settings.account;
  if (!conn.settings.account_url && account && SUBDOMAIN.test(account)) return `https://${account}.api-us1.com`;
  return originSetting(conn, ['account_url'], 'the account API URL');
}

/** ActiveCampaign (API v3) on the account's own host, by the `Api-Token` header. */
export default defineIntegration({
  key: 'activecampaign',
  name: 'ActiveCampaign',
  auth: { kinds: ['api_key'], apply: (conn) => ({ headers: { 'api-token': requiredSecret(conn, 'api_key') } }) },
  baseUrl: activecampaignBaseUrl,
  actions: [syncContact, addTag, addToList, addNote],
});
