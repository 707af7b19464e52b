import { DomainError } from '../../core/errors';
import { findIntegration } from '../../integrations/registry';
import { OAUTH_VENDORS, type ClientAuth, type RevokeStyle } from './vendors';

/** The settings an integration's OAuth client is configured with: OAUTH_<INTEGRATION>_<SETTING> (config.oauthEnv). */
export const OAUTH_CLIENT_SETTINGS = ['CLIENT_ID', 'CLIENT_SECRET', 'SCOPES', 'AUTHORIZE_URL', 'TOKEN_URL', 'REVOKE_URL', 'TENANT'] as const;
/** One integration's OAuth client: the vendor's defaults overlaid with configuration. */
export interface OAuthClient {
  integration: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  scopeSeparator: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl?: string;
  revoke?: RevokeStyle;
  clientAuth: ClientAuth;
  authorizeParams: Record<string, string>;
}

const notConfigured = (integration: string, what: string) =>
  new DomainError('oauth_not_configured', `${integration} cannot be connected through OAuth here: ${what}`);

/** The integration's OAuth client, or oauth_not_configured naming the variable to set. */
export function oauthClient(integrationKey: string, oauthEnv: Record<string, string> = {}): OAuthClient {
  const integration = findIntegration(integrationKey);
  if (!integration || !integration.auth.kinds.includes('oauth2')) throw notConfigured(integrationKey, 'it is not an OAuth integration');
  const prefix = `OAUTH_${integration.key.toUpperCase()}_`;
  const env = (name: (typeof OAUTH_CLIENT_SETTINGS)[number]) => oauthEnv[prefix + name];
  const vendor = OAUTH_VENDORS[integration.key];
  const clientId = env('CLIENT_ID');
  if (!clientId) throw notConfigured(integration.key, `set ${prefix}CLIENT_ID and ${prefix}CLIENT_SECRET`);
  const tenant = (url: string | undefined) => url?.replaceAll('{tenant}', encodeURIComponent(env('TENANT') ?? 'common'));
  const authorizeUrl = tenant(env('AUTHORIZE_URL') ?? vendor?.authorizeUrl);
  const tokenUrl = tenant(env('TOKEN_URL') ?? vendor?.tokenUrl ?? integration.auth.oauth2?.tokenUrl);
  if (!authorizeUrl || !tokenUrl) throw notConfigured(integration.key, `set ${prefix}AUTHORIZE_URL and ${prefix}TOKEN_URL (no defaults for this vendor)`);
  const scopes =
    env('SCOPES')
      ?.split(/[\s,]+/)
      .filter(Boolean) ??
    integration.auth.oauth2?.scopes ??
    [];
  return {
    integration: integration.key,
    clientId,
    clientSecret: env('CLIENT_SECRET'),
    scopes,
    scopeSeparator: vendor?.scopeSeparator ?? ' ',
    authorizeUrl,
    tokenUrl,
    revokeUrl: tenant(env('REVOKE_URL') ?? vendor?.revokeUrl),
    revoke: vendor?.revoke ?? (env('REVOKE_URL') ? 'rfc7009' : undefined),
    clientAuth: vendor?.clientAuth ?? 'client_secret_basic',
    authorizeParams: vendor?.authorizeParams ?? {},
  };
}

/** The client credentials as the token endpoint wants them: an Authorization header, or form fields. */
export function clientCredentials(client: Pick<OAuthClient, 'clientId' | 'clientSecret' | 'clientAuth'>): {
  headers: Record<string, string>;
  form: Record<string, string>;
} {
  if (client.clientAuth === 'client_secret_basic' && client.clientSecret) {
    // RFC 6749 §2.3.1: both parts form-urlencoded before Base64.
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    return { headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}` }, form: {} };
  }
  return { headers: {}, form: { client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}) } };
}
