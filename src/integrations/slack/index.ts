import { bearerAuth } from '../auth';
import { defineIntegration, VendorError, type VendorResponse } from '../define';
import findUserByEmail from './find-user-by-email';
import listChannels from './list-channels';
import postMessage from './post-message';
import postThreadReply from './post-thread-reply';

const AUTH_ERRORS = new Set(['not_authed', 'invalid_auth', 'token_revoked', 'token_expired', 'account_inactive', 'missing_scope', 'no_permission']);
const RETRYABLE = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/** Slack answers 200 with `ok:false` on failure: its `error` code decides the type. */
function errorInBody(res: VendorResponse): VendorError | undefined {
  const body = res.body as { ok?: boolean; error?: string } | undefined;
  if (!body || typeof body !== 'object' || body.ok !== false) return undefined;
  const code = body.error ?? 'unknown_error';
  if (AUTH_ERRORS.has(code))
    return new VendorError('vendor_auth_failed', `Slack refused the credentials (${code}); reconnect the integration`, false, res.status);
  return new VendorError('vendor_error_in_body', `Slack said ${code}`, RETRYABLE.has(code), res.status);
}

/** Slack (Web API), by a bot or user token. */
export default defineIntegration({
  key: 'slack',
  name: 'Slack',
  auth: bearerAuth(['oauth2', 'api_key'], {
    tokenUrl: 'https://slack.com/api/oauth.v2.access',
    scopes: ['chat:write', 'users:read', 'users:read.email', 'channels:read'],
  }),
  baseUrl: 'https://slack.com/api',
  apiDescription: 'slack.json',
  errorInBody,
  // Stored journeys may omit the action: it was the only one.
  defaultAction: 'post_message',
  actions: [postMessage, postThreadReply, findUserByEmail, listChannels],
});
