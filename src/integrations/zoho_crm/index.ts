import { bearerToken } from '../auth';
import { defineIntegration, VendorError, type Connection, type VendorResponse } from '../define';
import addNote from './add-note';
import createLead from './create-lead';
import findRecords from './find-records';
import updateRecord from './update-record';
import upsertContact from './upsert-contact';

/** Zoho's data centres by the domain suffix of their hosts (accounts.zoho.<dc>, www.zohoapis.<dc>). */
const ZOHO_DCS = ['com', 'eu', 'in', 'com.au', 'jp', 'ca', 'com.cn', 'sa', 'uk'];

/** The org's API host: the OAuth answer's `api_domain`, else `settings.dc`, else the US data centre. */
export function zohoBaseUrl(conn: Connection): string {
  const apiDomain = conn.settings.api_domain?.replace(/\/+$/, '');
  if (apiDomain) {
    const dc = /^https:\/\/(?:www\.)?zohoapis\.([a-z.]+)$/.exec(apiDomain)?.[1];
    if (!dc || !ZOHO_DCS.includes(dc))
      throw new VendorError('connection_incomplete', `the zoho_crm connection's api_domain is not a Zoho API host; reconnect the integration`, false);
    return apiDomain;
  }
  const dc = conn.settings.dc ?? 'com';
  if (!ZOHO_DCS.includes(dc))
    throw new VendorError('connection_incomplete', `the zoho_crm connection's dc must be one of ${ZOHO_DCS.join(', ')}; reconnect the integration`, false);
  return `https://www.zohoapis.${dc}`;
}

interface ZohoRow {
  status?: string;
  code?: string;
  message?: string;
  details?: unknown;
}

/** Zoho reports each record's outcome in `data[]`: a 200/201/207 whose row has `status:"error"` failed. */
function errorInBody(res: VendorResponse): VendorError | undefined {
  const row = (res.body as { data?: ZohoRow[] } | undefined)?.data?.[0];
  if (!row || row.status !== 'error') return undefined;
  const auth = row.code === 'INVALID_TOKEN' || row.code === 'OAUTH_SCOPE_MISMATCH';
  const said = `${row.code ?? 'ERROR'}: ${row.message ?? ''}${row.details ? ` ${JSON.stringify(row.details)}` : ''}`.slice(0, 300);
  if (auth) return new VendorError('vendor_auth_failed', `Zoho CRM refused the credentials (${said}); reconnect the integration`, false, res.status);
  return new VendorError('vendor_error_in_body', `Zoho CRM rejected the record (${said})`, false, res.status);
}

/** Zoho CRM (API v8) on the org's data-centre host, by OAuth (`Authorization: Zoho-oauthtoken …`). */
export default defineIntegration({
  key: 'zoho_crm',
  name: 'Zoho CRM',
  auth: {
    kinds: ['oauth2'],
    oauth2: { tokenUrl: 'https://accounts.zoho.com/oauth/v2/token', scopes: ['ZohoCRM.modules.ALL'] },
    apply: (conn) => ({ headers: { authorization: `Zoho-oauthtoken ${bearerToken(conn)}` } }),
  },
  baseUrl: zohoBaseUrl,
  apiDescription: 'zoho-crm.json',
  errorInBody,
  actions: [createLead, upsertContact, addNote, updateRecord, findRecords],
});
