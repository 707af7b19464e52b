import { createHash, randomBytes } from 'node:crypto';
import { publicUrls, type Config } from '../../core/config';
import { defaultKeyring, type Keyring } from '../../crypto/keyring';
import type { Db } from '../../db/pool';
import { DomainError } from '../../core/errors';
import { createConnection, type ConnectionSummary } from '../store';
import { consumeOAuthState, deleteExpiredOAuthStates, insertOAuthState } from '../db/oauth-states';
import { oauthClient, type OAuthClient } from './clients';
import { exchangeCode, hubspotPortalId, TokenExchangeError, type TokenAnswer } from './token';

type FlowConfig = Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL' | 'OAUTH_RETURN_URLS' | 'OAUTH_STATE_TTL_SECONDS' | 'SSRF_ALLOWLIST' | 'oauthEnv'>;

const base64url = (b: Buffer) => b.toString('base64url');
const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest();
const verifierAad = (stateHash: Buffer) => `oauth_states:${stateHash.toString('hex')}`;

/** The one callback URL every vendor is given (register it with each vendor's OAuth app). */
export const oauthCallbackUrl = (config: Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL'>) => `${publicUrls(config).base_url}/connections/oauth/callback`;

/** True when url starts with an allowed URL: same origin, and its path at or below the allowed path. */
export function returnUrlAllowed(url: string, allowed: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(u.protocol) || u.username || u.password) return false;
  return allowed.some((a) => {
    const p = new URL(a);
    const path = p.pathname.endsWith('/') ? p.pathname : `${p.pathname}/`;
    return u.origin === p.origin && (u.pathname === p.pathname || u.pathname.startsWith(path));
  });
}

/**
 * Starts an authorization-code flow (RFC 6749 §4.1) with PKCE S256 (RFC 7636) for the caller: the user (JWT) or the
 * workspace (userId null). Only the state's hash and the sealed code_verifier are stored; the authorize URL is returned.
 */
export async function startAuthorization(
  db: Db,
  config: FlowConfig,
  who: { workspaceId: string; userId: string | null },
  integration: string,
  returnUrl: string | undefined,
  keyring: Keyring = defaultKeyring(),
): Promise<{ authorizeUrl: string; expiresAt: Date }> {
  const client = oauthClient(integration, config.oauthEnv);
  if (returnUrl !== undefined && !returnUrlAllowed(returnUrl, config.OAUTH_RETURN_URLS)) {
    throw new DomainError('oauth_return_url_not_allowed', 'return_url: not in OAUTH_RETURN_URLS (the allow-list of where flows may end)');
  }
  const state = base64url(randomBytes(32));
  const verifier = base64url(randomBytes(32));
  const stateHash = hashState(state);
  const redirectUri = oauthCallbackUrl(config);
  const expiresAt = new Date(Date.now() + config.OAUTH_STATE_TTL_SECONDS * 1000);
  await deleteExpiredOAuthStates(db);
  await insertOAuthState(db, {
    stateHash,
    workspace_id: who.workspaceId,
    user_id: who.userId,
    integration: client.integration,
    verifier_enc: keyring.seal(verifier, verifierAad(stateHash)),
    redirect_uri: redirectUri,
    return_url: returnUrl ?? null,
    expires_at: expiresAt,
  });
  const url = new URL(client.authorizeUrl);
  const params = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirectUri,
    state,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...(client.scopes.length ? { scope: client.scopes.join(client.scopeSeparator) } : {}),
    ...client.authorizeParams,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { authorizeUrl: url.toString(), expiresAt };
}

/** How a flow ended: where the browser goes (null: a page), and the connection or the reason it failed. */
export type FlowOutcome = { returnUrl: string | null; integration: string } & ({ ok: true; connection: ConnectionSummary } | { ok: false; error: string });

/**
 * The callback: the state must be one this service issued, unused and unexpired (it is consumed now, whatever follows);
 * then the code is exchanged with the stored verifier and the tokens are sealed as the caller's connection.
 */
export async function completeAuthorization(
  db: Db,
  config: FlowConfig,
  q: { state?: string; code?: string; error?: string },
  keyring: Keyring = defaultKeyring(),
): Promise<FlowOutcome> {
  const stateHash = q.state ? hashState(q.state) : undefined;
  const flow = stateHash ? await consumeOAuthState(db, stateHash) : undefined;
  if (!flow || !stateHash) throw new DomainError('oauth_state_invalid', 'state: unknown, already used or expired; start connecting again');
  const end = { returnUrl: flow.return_url, integration: flow.integration };
  if (q.error || !q.code) return { ...end, ok: false, error: q.error ? q.error.slice(0, 60) : 'no authorization code' };
  const client = oauthClient(flow.integration, config.oauthEnv);
  let tokens: TokenAnswer;
  try {
    tokens = await exchangeCode(
      client,
      { code: q.code, verifier: keyring.openText(flow.verifier_enc, verifierAad(stateHash)), redirectUri: flow.redirect_uri },
      config.SSRF_ALLOWLIST,
    );
  } catch (err) {
    if (err instanceof TokenExchangeError) return { ...end, ok: false, error: err.code };
    throw err;
  }
  const { connection } = await createConnection(
    db,
    {
      workspaceId: flow.workspace_id,
      userId: flow.user_id,
      integration: flow.integration,
      kind: 'oauth2',
      secrets: { access_token: tokens.access_token, ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}) },
      settings: await vendorSettings(client, tokens, config.SSRF_ALLOWLIST),
      expiresAt: tokens.expires_in ? new Date(Date.now() + tokens.expires_in * 1000) : null,
    },
    keyring,
  );
  return { ...end, ok: true, connection };
}

/** What the connection keeps besides tokens: where to refresh, and each vendor's account ids and hosts. */
async function vendorSettings(client: OAuthClient, tokens: TokenAnswer, allowlist: string[]): Promise<Record<string, string>> {
  const settings: Record<string, string> = { token_url: client.tokenUrl, client_id: client.clientId };
  if (tokens.scope) settings.scope = tokens.scope.slice(0, 1000);
  if (client.integration === 'salesforce' && tokens.instance_url) settings.instance_url = tokens.instance_url;
  if (client.integration === 'slack' && tokens.team?.id) settings.team_id = tokens.team.id;
  if (client.integration === 'hubspot') {
    const portal = await hubspotPortalId(client, tokens.access_token, allowlist);
    if (portal) settings.portal_id = portal;
  }
  return settings;
}
