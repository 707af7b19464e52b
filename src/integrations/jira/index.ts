import { basicHeader } from '../basic';
import type { Connection } from '../define';
import { defineIntegration, VendorError } from '../define';
import { addComment } from './add-comment';
import { createIssue } from './create-issue';

/** The site's REST origin: OAuth 2.0 (3LO) apps go through api.atlassian.com with the site's cloud id. */
function siteUrl(conn: Connection): string {
  if (conn.settings.cloud_id) return `https://api.atlassian.com/ex/jira/${encodeURIComponent(conn.settings.cloud_id)}`;
  const site = (conn.settings.site ?? conn.settings.subdomain ?? '').replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  if (!/^[a-z0-9][a-z0-9-]*(\.atlassian\.net)?$/i.test(site))
    throw new VendorError(
      'connection_incomplete',
      'the jira connection needs settings.site (acme or acme.atlassian.net) or settings.cloud_id; reconnect the integration',
      false,
    );
  return `https://${site.includes('.') ? site : `${site}.atlassian.net`}`;
}

/** Jira Cloud REST API v3 on the connection's site: Basic email:API token, or an OAuth 2.0 (3LO) Bearer token. */
export default defineIntegration({
  key: 'jira',
  name: 'Jira',
  auth: {
    kinds: ['basic', 'oauth2'],
    apply: (conn) => {
      if (conn.secrets.access_token) return { headers: { Authorization: `Bearer ${conn.secrets.access_token}` } };
      return { headers: { Authorization: basicHeader(conn, ['username', 'email'], ['password', 'api_token']) } };
    },
    oauth2: { tokenUrl: 'https://auth.atlassian.com/oauth/token', scopes: ['write:jira-work', 'offline_access'] },
  },
  baseUrl: siteUrl,
  actions: [createIssue, addComment],
});
