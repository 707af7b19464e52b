import { z } from 'zod';
import { outboundRequest } from '../../net/outbound';
import { clientCredentials, type OAuthClient } from './clients';

/** What a token endpoint's refusal or an unreachable one becomes; the message is safe to show (no token in it). */
export class TokenExchangeError extends Error {
  constructor(readonly code: string) {
    super(`the vendor refused the authorization code (${code})`);
    this.name = 'TokenExchangeError';
  }
}

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive().optional(),
  scope: z.string().optional(),
  // Vendor extras kept as connection settings: Salesforce's instance_url, Slack's team.
  instance_url: z.string().optional(),
  team: z.object({ id: z.string() }).partial().optional(),
  ok: z.boolean().optional(),
});
export type TokenAnswer = z.infer<typeof TokenAnswer>;

/** POSTs a grant to the client's token endpoint through the outbound guard, authenticating the client as the vendor wants. */
async function tokenRequest(client: OAuthClient, grant: Record<string, string>, allowlist: string[]): Promise<TokenAnswer> {
  const auth = clientCredentials(client);
  let res;
  try {
    res = await outboundRequest(
      client.tokenUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...auth.headers },
        body: new URLSearchParams({ ...grant, ...auth.form }).toString(),
        timeoutMs: 10_000,
        maxResponseBytes: 64 * 1024,
      },
      allowlist,
    );
  } catch (err) {
    throw new TokenExchangeError((err as { code?: string }).code === 'ssrf_blocked' ? 'token endpoint not allowed' : 'token endpoint unreachable');
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  const parsed = TokenAnswer.safeParse(body);
  // Slack answers 200 with ok:false.
  if (res.status !== 200 || !parsed.success || parsed.data.ok === false) {
    const said = (body as { error?: unknown } | undefined)?.error;
    throw new TokenExchangeError(typeof said === 'string' ? said.slice(0, 60) : `HTTP ${res.status}`);
  }
  return parsed.data;
}

/** Exchanges an authorization code (RFC 6749 §4.1.3) with its PKCE code_verifier (RFC 7636 §4.5). */
export const exchangeCode = (client: OAuthClient, c: { code: string; verifier: string; redirectUri: string }, allowlist: string[]) =>
  tokenRequest(client, { grant_type: 'authorization_code', code: c.code, redirect_uri: c.redirectUri, code_verifier: c.verifier }, allowlist);

/** HubSpot's portal (hub) id of an access token, from its token-information endpoint beside the token endpoint. */
export async function hubspotPortalId(client: OAuthClient, accessToken: string, allowlist: string[]): Promise<string | undefined> {
  const url = new URL(`/oauth/v1/access-tokens/${encodeURIComponent(accessToken)}`, client.tokenUrl);
  try {
    const res = await outboundRequest(
      url.toString(),
      { method: 'GET', headers: { accept: 'application/json' }, timeoutMs: 10_000, maxResponseBytes: 64 * 1024 },
      allowlist,
    );
    const hub = res.status === 200 ? (JSON.parse(res.body) as { hub_id?: unknown }).hub_id : undefined;
    return typeof hub === 'number' || typeof hub === 'string' ? String(hub) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Revokes a connection's grant at the vendor where it has an endpoint (RFC 7009 form, Slack's auth.revoke, HubSpot's
 * refresh-token DELETE); returns what happened. A vendor without one (Microsoft) is `unsupported`.
 */
export async function revokeGrant(client: OAuthClient, secrets: Record<string, string>, allowlist: string[]): Promise<'revoked' | 'unsupported' | 'failed'> {
  if (!client.revokeUrl || !client.revoke) return 'unsupported';
  const token = secrets.refresh_token ?? secrets.access_token;
  if (!token) return 'unsupported';
  const auth = clientCredentials(client);
  const base = { timeoutMs: 10_000, maxResponseBytes: 64 * 1024 };
  try {
    let res;
    if (client.revoke === 'bearer') {
      res = await outboundRequest(
        client.revokeUrl,
        { ...base, method: 'POST', headers: { authorization: `Bearer ${secrets.access_token ?? token}` } },
        allowlist,
      );
      if (res.status === 200 && (JSON.parse(res.body) as { ok?: boolean }).ok === false) return 'failed';
    } else if (client.revoke === 'hubspot') {
      if (!secrets.refresh_token) return 'unsupported';
      res = await outboundRequest(
        `${client.revokeUrl.replace(/\/+$/, '')}/${encodeURIComponent(secrets.refresh_token)}`,
        { ...base, method: 'DELETE' },
        allowlist,
      );
    } else {
      const form = new URLSearchParams({ token, token_type_hint: secrets.refresh_token ? 'refresh_token' : 'access_token', ...auth.form });
      res = await outboundRequest(
        client.revokeUrl,
        { ...base, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth.headers }, body: form.toString() },
        allowlist,
      );
    }
    return res.status >= 200 && res.status < 300 ? 'revoked' : 'failed';
  } catch {
    return 'failed';
  }
}
