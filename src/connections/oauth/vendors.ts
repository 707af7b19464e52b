/** How a vendor's token endpoint wants the client to authenticate (RFC 6749 §2.3.1). */
export type ClientAuth = 'client_secret_basic' | 'client_secret_post';

/** How a vendor revokes a token: RFC 7009 (form `token=`), Slack's auth.revoke (the token as Bearer), HubSpot's DELETE. */
export type RevokeStyle = 'rfc7009' | 'bearer' | 'hubspot';

/** A vendor's OAuth endpoints and quirks; every URL can be overridden per integration by configuration. */
export interface OAuthVendor {
  authorizeUrl: string;
  /** Default: the integration's auth.oauth2.tokenUrl. */
  tokenUrl?: string;
  revokeUrl?: string;
  revoke?: RevokeStyle;
  clientAuth: ClientAuth;
  /** Extra authorize parameters (Google's offline access and consent prompt). */
  authorizeParams?: Record<string, string>;
  /** Slack joins scopes with commas; everyone else with spaces. */
  scopeSeparator?: string;
  /** `{tenant}` in the URLs is the configured tenant (Microsoft; default `common`). */
  tenant?: boolean;
}

const google: OAuthVendor = {
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  revoke: 'rfc7009',
  clientAuth: 'client_secret_post',
  // A refresh token is only issued with offline access, and again on a re-consent only with prompt=consent.
  authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
};
const microsoft: OAuthVendor = {
  authorizeUrl: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize',
  tokenUrl: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
  clientAuth: 'client_secret_post',
  tenant: true,
};

/** The built-in defaults by integration key (Microsoft has no revocation endpoint; Zendesk and WhatsApp need configured URLs). */
export const OAUTH_VENDORS: Record<string, OAuthVendor> = {
  gmail: google,
  google_calendar: google,
  google_sheets: google,
  microsoft_graph: microsoft,
  microsoft_teams: microsoft,
  salesforce: {
    authorizeUrl: 'https://login.salesforce.com/services/oauth2/authorize',
    revokeUrl: 'https://login.salesforce.com/services/oauth2/revoke',
    revoke: 'rfc7009',
    clientAuth: 'client_secret_post',
  },
  hubspot: {
    authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
    revokeUrl: 'https://api.hubapi.com/oauth/v1/refresh-tokens',
    revoke: 'hubspot',
    clientAuth: 'client_secret_post',
  },
  slack: {
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    revokeUrl: 'https://slack.com/api/auth.revoke',
    revoke: 'bearer',
    clientAuth: 'client_secret_post',
    scopeSeparator: ',',
  },
  zoom: { authorizeUrl: 'https://zoom.us/oauth/authorize', revokeUrl: 'https://zoom.us/oauth/revoke', revoke: 'rfc7009', clientAuth: 'client_secret_basic' },
  notion: { authorizeUrl: 'https://api.notion.com/v1/oauth/authorize', clientAuth: 'client_secret_basic', authorizeParams: { owner: 'user' } },
  airtable: { authorizeUrl: 'https://airtable.com/oauth2/v1/authorize', clientAuth: 'client_secret_basic' },
  asana: {
    authorizeUrl: 'https://app.asana.com/-/oauth_authorize',
    revokeUrl: 'https://app.asana.com/-/oauth_revoke',
    revoke: 'rfc7009',
    clientAuth: 'client_secret_post',
  },
  calendly: {
    authorizeUrl: 'https://auth.calendly.com/oauth/authorize',
    revokeUrl: 'https://auth.calendly.com/oauth/revoke',
    revoke: 'rfc7009',
    clientAuth: 'client_secret_post',
  },
  pipedrive: {
    authorizeUrl: 'https://oauth.pipedrive.com/oauth/authorize',
    revokeUrl: 'https://oauth.pipedrive.com/oauth/revoke',
    revoke: 'rfc7009',
    clientAuth: 'client_secret_basic',
  },
  klaviyo: {
    authorizeUrl: 'https://www.klaviyo.com/oauth/authorize',
    revokeUrl: 'https://a.klaviyo.com/oauth/revoke',
    revoke: 'rfc7009',
    clientAuth: 'client_secret_basic',
  },
  zoho_crm: {
    authorizeUrl: 'https://accounts.zoho.com/oauth/v2/auth',
    clientAuth: 'client_secret_post',
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
  },
  jira: {
    authorizeUrl: 'https://auth.atlassian.com/authorize',
    clientAuth: 'client_secret_post',
    authorizeParams: { audience: 'api.atlassian.com', prompt: 'consent' },
  },
  acuity: { authorizeUrl: 'https://acuityscheduling.com/oauth2/authorize', clientAuth: 'client_secret_post' },
  clickup: { authorizeUrl: 'https://app.clickup.com/api', clientAuth: 'client_secret_post' },
  close: { authorizeUrl: 'https://app.close.com/oauth2/authorize/', clientAuth: 'client_secret_post' },
  gohighlevel: { authorizeUrl: 'https://marketplace.gohighlevel.com/oauth/chooselocation', clientAuth: 'client_secret_post' },
  intercom: { authorizeUrl: 'https://app.intercom.com/oauth', clientAuth: 'client_secret_post' },
  mailchimp: { authorizeUrl: 'https://login.mailchimp.com/oauth2/authorize', clientAuth: 'client_secret_post' },
  monday: { authorizeUrl: 'https://auth.monday.com/oauth2/authorize', clientAuth: 'client_secret_post' },
  stripe: { authorizeUrl: 'https://connect.stripe.com/oauth/authorize', tokenUrl: 'https://connect.stripe.com/oauth/token', clientAuth: 'client_secret_post' },
};
