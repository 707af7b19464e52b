import { clientCredentials, oauthClient } from '../../src/connections/oauth/clients';
import { returnUrlAllowed } from '../../src/connections/oauth/flow';
import { findIntegration } from '../../src/integrations/registry';

// Issue 27: one configuration scheme (OAUTH_<INTEGRATION>_*) over built-in vendor defaults and quirks.
describe('OAuth clients from configuration', () => {
  it('overlays the vendor defaults: Google offline consent, Microsoft tenant, Slack comma scopes, Salesforce/HubSpot URLs', () => {
    const google = oauthClient('google_calendar', { OAUTH_GOOGLE_CALENDAR_CLIENT_ID: 'g', OAUTH_GOOGLE_CALENDAR_CLIENT_SECRET: 's' });
    expect(google).toMatchObject({
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      revoke: 'rfc7009',
      authorizeParams: { access_type: 'offline', prompt: 'consent' },
    });
    const ms = oauthClient('microsoft_graph', { OAUTH_MICROSOFT_GRAPH_CLIENT_ID: 'm', OAUTH_MICROSOFT_GRAPH_TENANT: 'contoso.onmicrosoft.com' });
    expect([ms.authorizeUrl, ms.tokenUrl, ms.revokeUrl]).toEqual([
      'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize',
      'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token',
      undefined,
    ]);
    expect(oauthClient('microsoft_teams', { OAUTH_MICROSOFT_TEAMS_CLIENT_ID: 'm' }).tokenUrl).toBe(
      'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    );
    const slack = oauthClient('slack', { OAUTH_SLACK_CLIENT_ID: 's', OAUTH_SLACK_SCOPES: 'chat:write users:read' });
    expect([slack.scopes, slack.scopeSeparator, slack.revoke]).toEqual([['chat:write', 'users:read'], ',', 'bearer']);
    expect(oauthClient('salesforce', { OAUTH_SALESFORCE_CLIENT_ID: 'x' })).toMatchObject({
      authorizeUrl: 'https://login.salesforce.com/services/oauth2/authorize',
      revokeUrl: 'https://login.salesforce.com/services/oauth2/revoke',
    });
    expect(oauthClient('hubspot', { OAUTH_HUBSPOT_CLIENT_ID: 'x', OAUTH_HUBSPOT_TOKEN_URL: 'https://hub.example.com/oauth/v1/token' })).toMatchObject({
      authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
      tokenUrl: 'https://hub.example.com/oauth/v1/token',
      scopes: findIntegration('hubspot')!.auth.oauth2!.scopes,
    });
  });

  it('refuses an integration without a client id, without OAuth, or without known URLs, naming what to set', () => {
    expect(() => oauthClient('hubspot', {})).toThrow(/set OAUTH_HUBSPOT_CLIENT_ID/);
    expect(() => oauthClient('mailgun', { OAUTH_MAILGUN_CLIENT_ID: 'x' })).toThrow(/not an OAuth integration/);
    expect(() => oauthClient('zendesk', { OAUTH_ZENDESK_CLIENT_ID: 'x' })).toThrow(/set OAUTH_ZENDESK_AUTHORIZE_URL and OAUTH_ZENDESK_TOKEN_URL/);
  });

  it('client_secret_basic form-encodes both parts (RFC 6749 §2.3.1); client_secret_post sends them in the form', () => {
    expect(clientCredentials({ clientId: 'a b', clientSecret: 'p:w/+', clientAuth: 'client_secret_basic' })).toEqual({
      headers: { authorization: `Basic ${Buffer.from('a%20b:p%3Aw%2F%2B').toString('base64')}` },
      form: {},
    });
    expect(clientCredentials({ clientId: 'a', clientSecret: 's', clientAuth: 'client_secret_post' })).toEqual({
      headers: {},
      form: { client_id: 'a', client_secret: 's' },
    });
  });

  it('return_url: same origin, at or below an allowed path, no userinfo, http(s) only', () => {
    const allowed = ['https://app.example.com/settings', 'http://localhost:3000'];
    for (const ok of ['https://app.example.com/settings', 'https://app.example.com/settings/x?y=1', 'http://localhost:3000/', 'http://localhost:3000/a'])
      expect([ok, returnUrlAllowed(ok, allowed)]).toEqual([ok, true]);
    for (const bad of [
      'https://app.example.com/settingsx',
      'https://app.example.com/',
      'https://app.example.com.evil.com/settings',
      'https://u@app.example.com/settings',
      'http://app.example.com/settings',
      'javascript:alert(1)',
      'not a url',
      'http://localhost:3001/',
    ]) {
      expect([bad, returnUrlAllowed(bad, allowed)]).toEqual([bad, false]);
    }
    expect(returnUrlAllowed('https://app.example.com/settings', [])).toBe(false);
  });
});
