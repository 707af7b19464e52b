import { DomainError, type DomainErrorCode } from '../core/errors';
import { ApiError } from './api-error';

/** The one place domain error codes become HTTP statuses. */
export const STATUS_OF_DOMAIN_CODE = {
  invalid_fields: 400,
  invalid_journey: 409,
  journey_not_found: 404,
  lead_not_found: 404,
  workflow_unavailable: 503,
  agent_not_found: 404,
  phone_number_not_found: 404,
  phone_number_taken: 409,
  journey_step_not_found: 404,
  hook_limit_reached: 409,
  automation_not_allowed: 403,
  connection_not_found: 404,
  oauth_not_configured: 409,
  oauth_return_url_not_allowed: 400,
  oauth_state_invalid: 400,
  oauth_browser_mismatch: 403,
  integration_not_allowed: 403,
  connection_test_too_soon: 429,
  no_caller_id: 409,
  do_not_call: 409,
  outside_call_window: 409,
  concurrent_call_cap: 429,
  call_ended: 409,
  call_facts_changed: 503,
  import_not_found: 404,
  malformed_file: 400,
  file_too_large: 413,
  campaign_not_found: 404,
  campaign_ended: 409,
  unauthorized: 401,
  auth_unavailable: 503,
  login_rate_limited: 429,
} as const satisfies Record<DomainErrorCode, number>;

/** The status a known error answers with (DomainError by its code, ApiError, a library's 4xx http-error); undefined for anything else. */
export function knownErrorStatus(err: unknown): number | undefined {
  if (err instanceof DomainError) return STATUS_OF_DOMAIN_CODE[err.code];
  if (err instanceof ApiError) return err.status;
  // Koa/http-errors thrown by libraries (e.g. ctx.throw); their messages are safe to show.
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The headers a known error answers with: an ApiError's own; for a DomainError, Retry-After when it carries one and
 * the challenge RFC 9110 asks of every 401 (each credential here is a bearer token or key).
 */
export function knownErrorHeaders(err: unknown): Record<string, string> {
  if (err instanceof ApiError) return err.headers;
  if (!(err instanceof DomainError)) return {};
  const headers: Record<string, string> = {};
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  if (STATUS_OF_DOMAIN_CODE[err.code] === 401) headers['WWW-Authenticate'] = 'Bearer';
  return headers;
}
