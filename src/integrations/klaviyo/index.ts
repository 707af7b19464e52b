import { bearerToken } from '../auth';
import { requiredSecret } from '../connection-settings';
import { defineIntegration } from '../define';
import addToList from './add-to-list';
import createProfile from './create-profile';
import trackEvent from './track-event';
import upsertProfile from './upsert-profile';

/** The API revision every request names (the `revision` header). */
const KLAVIYO_REVISION = '2026-07-15';

/** Klaviyo (JSON:API), by a private key (`Klaviyo-API-Key …`) or OAuth, with the `revision` header. */
export default defineIntegration({
  key: 'klaviyo',
  name: 'Klaviyo',
  auth: {
    kinds: ['api_key', 'oauth2'],
    oauth2: { tokenUrl: 'https://a.klaviyo.com/oauth/token', scopes: ['profiles:write', 'lists:write', 'events:write'] },
    apply: (conn) => ({
      headers: { authorization: conn.kind === 'oauth2' ? `Bearer ${bearerToken(conn)}` : `Klaviyo-API-Key ${requiredSecret(conn, 'api_key')}` },
    }),
  },
  baseUrl: 'https://a.klaviyo.com',
  apiDescription: 'klaviyo.json',
  headers: { revision: KLAVIYO_REVISION, accept: 'application/vnd.api+json' },
  actions: [createProfile, upsertProfile, addToList, trackEvent],
});
