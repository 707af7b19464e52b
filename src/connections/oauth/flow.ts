import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { publicUrls, type Config } from '../../core/config';
import { defaultKeyring, type Keyring } from '../../crypto/keyring';
import type { Db } from '../../db/pool';
import { DomainError } from '../../core/errors';
import { createConnection, type ConnectionSummary } from '../store';
import { findUserForAuth } from '../../workspaces/db/users';
import { bindOAuthState, consumeOAuthState, deleteExpiredOAuthStates, insertOAuthState } from '../db/oauth-states';
import { oauthClient, type OAuthClient } from './clients';
import { exchangeCode, hubspotPortalId, TokenExchangeError, type TokenAnswer } from './token';

type FlowConfig = Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL' | 'OAUTH_RETURN_URLS' | 'OAUTH_STATE_TTL_SECONDS' | 'SSRF_ALLOWLIST' | 'oauthEnv'>;

const base64url = (b: Buffer) => b.toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const hashState = sha256;
const verifierAad = (stateHash: Buffer) => `oauth_states:${stateHash.toString('hex')}`;

/** The one callback URL every vendor is given (register it with each vendor's OAuth app). */
export const oauthCallbackUrl = (config: Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL'>) => `${publicUrls(config).base_url}/connections/oauth/callback`;

/** The connect link a start answers with: the browser that opens it first is bound to the flow, then sent to the vendor. */
const oauthBeginUrl = (config: Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL'>, state: string) =>
  `${publicUrls(config).base_url}/connections/oauth/begin?state=${encodeURIComponent(state)}`;

/**
 * The name of the cookie that carries a flow's browser secret: one per flow (from its state's hash), so flows started
 * in several tabs of one browser do not overwrite each other's.
 */
export const bindingCookieName = (state: string) => `sb_oauth_${hashState(state).subarray(0, 8).toString('hex')}`;

/** Refuses a user restricted to some integrations (users.allowed_integrations) a connection to another one. */
async function checkAllowed(db: Db, userId: string | null, integration: string): Promise<void> {
  if (userId === null) return;
  const allowed = (await findUserForAuth(db, userId))?.allowed_integrations;
  if (allowed && !allowed.includes(integration)) {
    throw new DomainError('integration_not_allowed', `Forbidden: you are not allowed to connect ${integration}`);
  }
}

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
 * workspace (userId null). Only the state's hash and the sealed code_verifier are stored. What is returned is the
 * connect link (oauthBeginUrl), not the vendor's URL: the browser that opens it is bound to the flow (beginAuthorization).
 */
export async function startAuthorization(
  db: Db,
  config: FlowConfig,
  who: { workspaceId: string; userId: string | null },
  integration: string,
  returnUrl: string | undefined,
  keyring: Keyring = defaultKeyring(),
): Promise<{ connectUrl: string; expiresAt: Date }> {
  const client = oauthClient(integration, config.oauthEnv);
  await checkAllowed(db, who.userId, client.integration);
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
  return { connectUrl: oauthBeginUrl(config, state), expiresAt };
}

/** The vendor's authorize URL of a flow: its state, redirect_uri and the S256 challenge of its verifier. */
function vendorAuthorizeUrl(client: OAuthClient, state: string, verifier: string, redirectUri: string): string {
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
  return url.toString();
}

/**
 * The connect link opened (RFC 9700 §4.7.1): binds the flow to this browser by a one-time secret whose SHA-256 is
 * stored with the state, once (a second opening, in any browser, is refused), and answers the vendor's authorize URL.
 * The caller hands the secret to the browser (an HttpOnly cookie named bindingCookieName(state)); only a callback that
 * brings it back completes the flow.
 */
export async function beginAuthorization(
  db: Db,
  config: FlowConfig,
  state: string | undefined,
  keyring: Keyring = defaultKeyring(),
): Promise<{ authorizeUrl: string; binding: string; expiresAt: Date }> {
  const binding = base64url(randomBytes(32));
  const stateHash = state ? hashState(state) : undefined;
  const flow = state && stateHash ? await bindOAuthState(db, stateHash, sha256(binding)) : undefined;
  if (!state || !stateHash || !flow) {
    throw new DomainError('oauth_state_invalid', 'state: unknown, expired, or this connect link was already opened; start connecting again');
  }
  const client = oauthClient(flow.integration, config.oauthEnv);
  const verifier = keyring.openText(flow.verifier_enc, verifierAad(stateHash));
  return { authorizeUrl: vendorAuthorizeUrl(client, state, verifier, flow.redirect_uri), binding, expiresAt: flow.expires_at };
}

/** How a flow ended: where the browser goes (null: a page), and the connection or the reason it failed. */
export type FlowOutcome = { returnUrl: string | null; integration: string } & ({ ok: true; connection: ConnectionSummary } | { ok: false; error: string });

/**
 * The callback: the state must be one this service issued, unused and unexpired (it is consumed now, whatever follows),
 * and `binding` the secret of the browser that opened its connect link (else nothing is exchanged or stored); then the
 * code is exchanged with the stored verifier and the tokens are sealed as the caller's connection.
 */
export async function completeAuthorization(
  db: Db,
  config: FlowConfig,
  q: { state?: string; code?: string; error?: string },
  binding: string | undefined,
  keyring: Keyring = defaultKeyring(),
): Promise<FlowOutcome> {
  const stateHash = q.state ? hashState(q.state) : undefined;
  const flow = stateHash ? await consumeOAuthState(db, stateHash) : undefined;
  if (!flow || !stateHash) throw new DomainError('oauth_state_invalid', 'state: unknown, already used or expired; start connecting again');
  // Digests of equal length, compared in constant time; a flow no browser opened has no binding and never completes.
  if (!flow.binding_hash || flow.binding_hash.length !== 32 || binding === undefined || !timingSafeEqual(sha256(binding), flow.binding_hash)) {
    throw new DomainError(
      'oauth_browser_mismatch',
      'This browser did not open the connect link of this flow (its one-time cookie is missing or wrong): nothing was stored; start connecting again in the browser that will consent',
    );
  }
  const end = { returnUrl: flow.return_url, integration: flow.integration };
  if (q.error || !q.code) return { ...end, ok: false, error: q.error ? q.error.slice(0, 60) : 'no authorization code' };
  try {
    await checkAllowed(db, flow.user_id, flow.integration);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'integration_not_allowed') return { ...end, ok: false, error: 'integration not allowed' };
    throw err;
  }
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
