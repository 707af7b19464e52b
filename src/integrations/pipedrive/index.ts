import { bearerToken } from '../auth';
import { requiredSecret, SUBDOMAIN } from '../connection-settings';
import { defineIntegration, VendorError, type Connection, type VendorResponse } from '../define';
import addNote from './add-note';
import createLead from './create-lead';
import createPerson from './create-person';
import findPerson from './find-person';
import updateDeal from './update-deal';
import updatePerson from './update-person';

/** The company's API host: the OAuth answer's `api_domain`, else `https://<company_domain>.pipedrive.com`, else the shared host. */
function baseUrl(conn: Connection): string {
  const apiDomain = conn.settings.api_domain;
  if (apiDomain && /^https:\/\/[a-z0-9-]+\.pipedrive\.com\/?$/i.test(apiDomain)) return apiDomain.replace(/\/+$/, '');
  const company = conn.settings.company_domain;
  if (company && SUBDOMAIN.test(company)) return `https://${company}.pipedrive.com`;
  return 'https://api.pipedrive.com';
}

/** Pipedrive wraps answers in `{success, data}`; `success:false` is a failure whatever the status. */
function errorInBody(res: VendorResponse): VendorError | undefined {
  const body = res.body as { success?: boolean; error?: string } | undefined;
  if (!body || typeof body !== 'object' || body.success !== false) return undefined;
  return new VendorError('vendor_error_in_body', `Pipedrive said ${body.error ?? 'success:false'}`, false, res.status);
}

/** Pipedrive CRM: an API token in the `x-api-token` header, or OAuth. */
export default defineIntegration({
  key: 'pipedrive',
  name: 'Pipedrive',
  auth: {
    kinds: ['api_key', 'oauth2'],
    oauth2: { tokenUrl: 'https://oauth.pipedrive.com/oauth/token' },
    apply: (conn): { headers: Record<string, string> } =>
      conn.kind === 'oauth2' ? { headers: { authorization: `Bearer ${bearerToken(conn)}` } } : { headers: { 'x-api-token': requiredSecret(conn, 'api_key') } },
  },
  baseUrl,
  errorInBody,
  actions: [createPerson, createLead, addNote, updatePerson, findPerson, updateDeal],
});
