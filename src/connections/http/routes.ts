import type { ParameterizedContext } from 'koa';
import { unauthorized } from '../../http/api-error';
import type { AppState } from '../../http/state';
import { defineRoute, type RouteInput } from '../../http/route';
import { nameRun } from '../../http/run-link';
import { publishConnectionBroken } from '../events';
import { deleteAndRevoke, showConnection, testConnection } from '../manage';
import { beginAuthorization, bindingCookieName, completeAuthorization, oauthCallbackUrl, startAuthorization, type FlowOutcome } from '../oauth/flow';
import { listConnections } from '../store';
import type { BrokenConnection } from '../refresh';
import { DomainError } from '../../core/errors';
import { isUuid } from '../../core/ids';
import { BeginQuery, CallbackQuery, ConnectionAnswer, ConnectionDeleted, ConnectionList, ConnectionTestAnswer, StartAnswer, StartQuery } from './schemas';

const TAG = 'Connections';
const EXAMPLE_ID = { id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' };
const WHO =
  "With a workspace API key: the workspace's connections (every user's and its own); with a user JWT: that user's own. " +
  "Another workspace's (or, for a user, another owner's) connection is 404.";

/** Who is asking: the workspace (API key, userId null) or a user (JWT). */
function callerOf(input: RouteInput<unknown, unknown>): { workspaceId: string; userId: string | null } {
  const who = input.ctx.state.nocode;
  if (!who) throw unauthorized();
  return who;
}

/** The connection, when the caller may see it (a user only their own). */
async function visible(input: RouteInput<unknown, unknown>) {
  const id = input.params.id ?? '';
  // Every string is a path segment the document allows: one that is no UUID names no connection.
  if (!isUuid(id)) throw new DomainError('connection_not_found', 'Connection not found');
  const who = callerOf(input);
  const connection = await showConnection(input.deps.db, who.workspaceId, id);
  if (who.userId !== null && connection.user_id !== who.userId) throw new DomainError('connection_not_found', 'Connection not found');
  return { who, id, connection };
}

/** GET /v1/connections */
const listConnectionsRoute = defineRoute({
  method: 'get',
  path: '/v1/connections',
  tag: TAG,
  summary: 'List connections',
  description: `${WHO} Secrets are never shown, only their names; health says whether the vendor still renews the token.`,
  auth: 'keyOrUser',
  responses: { 200: { description: 'The connections', schema: ConnectionList } },
  async handler(input) {
    const who = callerOf(input);
    const all = await listConnections(input.deps.db, who.workspaceId);
    return { status: 'success' as const, connections: who.userId === null ? all : all.filter((c) => c.user_id === who.userId) };
  },
});

/** GET /v1/connections/{id} */
const getConnectionRoute = defineRoute({
  method: 'get',
  path: '/v1/connections/:id',
  tag: TAG,
  summary: 'Show a connection',
  description: `${WHO} Without secrets.`,
  auth: 'keyOrUser',
  example: { params: EXAMPLE_ID },
  responses: {
    200: { description: 'The connection', schema: ConnectionAnswer },
    404: { description: 'Connection not found (an id that is no UUID names none)' },
  },
  async handler(input) {
    return { status: 'success' as const, connection: (await visible(input)).connection };
  },
});

/** POST /v1/connections/{id}/test */
const testConnectionRoute = defineRoute({
  method: 'post',
  path: '/v1/connections/:id/test',
  tag: TAG,
  summary: 'Test a connection',
  description:
    `Can it still call the vendor? An OAuth connection renews its access token now; a refusal marks it broken (and sends connection.broken to ` +
    `the subscribed URLs, see POST /v1/calls/subscriptions). Other kinds are answered tested: false. ${WHO}`,
  auth: 'keyOrUser',
  example: { params: EXAMPLE_ID },
  responses: {
    200: { description: 'What the test found', schema: ConnectionTestAnswer },
    404: { description: 'Connection not found (an id that is no UUID names none)' },
  },
  namesRun: { when: 'when the test found the connection broken and started the delivery of connection.broken' },
  async handler(input) {
    const { who, id } = await visible(input);
    const { client } = input.deps.temporal;
    const prefix = input.deps.config.TEMPORAL_TASK_QUEUE_PREFIX;
    const onBroken = async (broken: BrokenConnection) => {
      nameRun(input.ctx, input.deps.config, (await publishConnectionBroken(client, prefix, broken)).workflowId);
    };
    return { status: 'success' as const, ...(await testConnection(input.deps.db, input.deps.config, who.workspaceId, id, { onBroken })) };
  },
});

/** DELETE /v1/connections/{id} */
const deleteConnectionRoute = defineRoute({
  method: 'delete',
  path: '/v1/connections/:id',
  tag: TAG,
  summary: 'Delete (and revoke) a connection',
  description:
    'Revokes the grant at the vendor where it has a revocation endpoint (Google, Salesforce, Slack auth.revoke, HubSpot, Zoom, …; Microsoft has none), then deletes the connection even if the vendor refused. ' +
    `Same as \`switchboard connection delete\`. ${WHO}`,
  auth: 'keyOrUser',
  example: { params: EXAMPLE_ID },
  responses: {
    200: { description: 'Deleted', schema: ConnectionDeleted },
    404: { description: 'Connection not found (an id that is no UUID names none)' },
  },
  async handler(input) {
    const { who, id } = await visible(input);
    const { revoked } = await deleteAndRevoke(input.deps.db, input.deps.config, who.workspaceId, id);
    return { status: 'success' as const, id, revoked, message: 'Connection deleted' };
  },
});

/** GET /v1/connections/oauth/{integration}/start */
const startOAuthRoute = defineRoute({
  method: 'get',
  path: '/v1/connections/oauth/:integration/start',
  tag: TAG,
  summary: 'Connect an account (OAuth 2.0 authorization code + PKCE)',
  description:
    'Starts a flow and answers its connect link (`authorize_url`, also in Location with the default 302): GET ' +
    "/v1/connections/oauth/begin, which binds the flow to the first browser that opens it and sends that browser on to the vendor's " +
    'authorize URL (single-use `state`, S256 `code_challenge`). The vendor sends the browser back to GET /v1/connections/oauth/callback, ' +
    'which completes only in that same browser and stores the tokens sealed as the connection of the caller: the user (JWT) or the ' +
    'workspace (API key). Open the link in the browser of the person whose account is connected (it works once, before expires_at). ' +
    'Connecting again replaces the connection and mends a broken one. A user restricted to some integrations may connect only those (403). ' +
    'The client id, secret and scopes come from OAUTH_<INTEGRATION>_CLIENT_ID/_CLIENT_SECRET/_SCOPES.',
  auth: 'keyOrUser',
  query: StartQuery,
  example: { params: { integration: 'hubspot' }, query: { redirect: 'false', return_url: 'https://app.example.com/settings/integrations' } },
  responses: {
    200: { description: 'With redirect=false: the connect link to send the browser to', schema: StartAnswer },
    302: { description: 'To the connect link (Location); the body has it too', schema: StartAnswer },
    400: { description: 'A return_url outside OAUTH_RETURN_URLS' },
    403: { description: 'A user restricted to other integrations (users.allowed_integrations)' },
    431: { description: "The URL (with its return_url) and the headers together over Node's 16 KiB limit" },
    409: { description: 'Not an OAuth integration, or no OAuth client configured for it' },
  },
  async handler(input) {
    const who = callerOf(input);
    const { connectUrl, expiresAt } = await startAuthorization(input.deps.db, input.deps.config, who, input.params.integration ?? '', input.query.return_url);
    if (input.query.redirect !== 'false') input.ctx.redirect(connectUrl);
    return { status: 'success' as const, authorize_url: connectUrl, expires_at: expiresAt.toISOString() };
  },
});

/** Where the browser-binding cookie is sent back: the callback's path only, over https when the api's public URL is https. */
function bindingCookie(config: Parameters<typeof oauthCallbackUrl>[0]): { path: string; secure: boolean } {
  const callback = new URL(oauthCallbackUrl(config));
  return { path: callback.pathname, secure: callback.protocol === 'https:' };
}

/** GET /v1/connections/oauth/begin */
const beginOAuthRoute = defineRoute({
  method: 'get',
  path: '/v1/connections/oauth/begin',
  tag: TAG,
  summary: 'Open a connect link (binds the flow to this browser)',
  description:
    'The `authorize_url` a start answers. The first browser to open it gets a one-time secret in a cookie (HttpOnly, SameSite=Lax, ' +
    'Secure when the public URL is https, sent only to the callback path, expiring with the flow) and is redirected (302) to the ' +
    "vendor's authorize URL; only the SHA-256 of the secret is stored. The callback completes only when the browser brings the " +
    'secret back (RFC 9700 §4.7.1), so an authorize or callback URL opened anywhere else connects nothing. A link opened a second ' +
    'time, in any browser, or after it expired is 400: start again. A HEAD request binds nothing.',
  auth: 'none',
  query: BeginQuery,
  example: { query: { state: 'aW52YWxpZA' } },
  responses: {
    302: { description: "To the vendor's authorize URL (Location), with the browser's cookie (Set-Cookie)", contentType: 'text/plain' },
    400: { description: 'Unknown or expired state, or a connect link already opened' },
    409: { description: "The integration's OAuth client is no longer configured" },
  },
  async handler(input) {
    const { config } = input.deps;
    // A HEAD (link checkers, previews) must not spend the link: only a browser's GET binds.
    if (input.ctx.method === 'HEAD') {
      input.ctx.set('Cache-Control', 'no-store');
      input.ctx.type = 'text/plain';
      return '';
    }
    const { authorizeUrl, binding, expiresAt } = await beginAuthorization(input.deps.db, config, input.query.state);
    const { path, secure } = bindingCookie(config);
    // Behind a TLS-terminating proxy Koa may see plain http; the cookie is Secure because the browser's URL is https.
    if (secure) input.ctx.cookies.secure = true;
    input.ctx.cookies.set(bindingCookieName(input.query.state!), binding, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path,
      expires: expiresAt,
      signed: false,
      overwrite: true,
    });
    input.ctx.set('Referrer-Policy', 'no-referrer');
    input.ctx.set('Cache-Control', 'no-store');
    input.ctx.redirect(authorizeUrl);
    input.ctx.type = 'text/plain';
    return 'Redirecting to the vendor';
  },
});

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function endFlow(ctx: ParameterizedContext<AppState>, outcome: FlowOutcome): string {
  // The callback URL carried the code: never leak it to the next page (Referer) or keep it in a cache.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  const params = outcome.ok
    ? { status: 'connected', integration: outcome.integration, connection_id: outcome.connection.id }
    : { status: 'failed', integration: outcome.integration, error: outcome.error };
  if (outcome.returnUrl) {
    const url = new URL(outcome.returnUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    ctx.redirect(url.toString());
    ctx.type = 'text/plain';
    return `Redirecting to ${url.toString()}`;
  }
  ctx.type = 'text/html';
  const said = outcome.ok
    ? `${outcome.integration} is connected. You can close this window.`
    : `Connecting ${outcome.integration} failed (${outcome.error}). Start again.`;
  return `<!doctype html><meta charset="utf-8"><title>Switchboard</title><p>${escapeHtml(said)}</p>`;
}

/** GET /v1/connections/oauth/callback */
const oauthCallbackRoute = defineRoute({
  method: 'get',
  path: '/v1/connections/oauth/callback',
  tag: TAG,
  summary: 'OAuth callback (the vendor redirects here)',
  description:
    "Register this URL with each vendor's OAuth app. The state must be one this service issued, unused and unexpired (it is spent now " +
    'whatever follows), and the browser must bring back the cookie GET /v1/connections/oauth/begin gave it (else 403, nothing is ' +
    'exchanged or stored); the code is exchanged with the PKCE verifier. Ends on a 302 to the return_url given at the start (with ' +
    'status=connected&connection_id=… or status=failed&error=…), else on a small page. An unknown, replayed or expired state is 400 and stores nothing.',
  auth: 'none',
  query: CallbackQuery,
  example: { query: { state: 'aW52YWxpZA', code: 'code-from-the-vendor', error: 'access_denied', error_description: 'The user declined' } },
  responses: {
    200: { description: 'A page saying how the flow ended', contentType: 'text/html' },
    302: { description: 'To the return_url with the outcome in its query', contentType: 'text/plain' },
    400: { description: 'Unknown, already used or expired state' },
    403: { description: 'Another browser than the one that opened the connect link (its cookie missing or wrong): nothing stored' },
    431: { description: "The URL (with the vendor's code) and the headers together over Node's 16 KiB limit" },
  },
  async handler(input) {
    const name = input.query.state ? bindingCookieName(input.query.state) : undefined;
    const binding = name ? input.ctx.cookies.get(name, { signed: false }) : undefined;
    // The secret is spent with the state, whatever follows: the browser forgets it.
    if (name && binding !== undefined) input.ctx.cookies.set(name, null, { path: bindingCookie(input.deps.config).path, signed: false, overwrite: true });
    const outcome = await completeAuthorization(input.deps.db, input.deps.config, input.query, binding);
    return endFlow(input.ctx, outcome);
  },
});

/** The connection routes, in the order the OpenAPI document lists them. */
export const connectionRoutes = [
  listConnectionsRoute,
  getConnectionRoute,
  testConnectionRoute,
  deleteConnectionRoute,
  startOAuthRoute,
  beginOAuthRoute,
  oauthCallbackRoute,
];
