/** Stable codes domain code (src/<domain> outside its http/ folder) fails with; src/http maps each to a status (src/http/error-status.ts). */
export const DOMAIN_ERROR_CODES = [
  'invalid_fields',
  'invalid_journey',
  'journey_not_found',
  'lead_not_found',
  'workflow_unavailable',
  'agent_not_found',
  'phone_number_not_found',
  'phone_number_taken',
  'journey_step_not_found',
  'hook_limit_reached',
  'automation_not_allowed',
  'connection_not_found',
  'oauth_not_configured',
  'oauth_return_url_not_allowed',
  'oauth_state_invalid',
  'no_caller_id',
  'do_not_call',
  'outside_call_window',
  'concurrent_call_cap',
  'call_ended',
  'call_facts_changed',
  'import_not_found',
  'malformed_file',
  'file_too_large',
  'campaign_not_found',
  'campaign_ended',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/**
 * A failure of the domain's rules, with a stable code and a human message, and no HTTP in it. An activity that lets
 * one through fails for good with the code as its Temporal failure type (worker/activity-errors.ts).
 */
export class DomainError extends Error {
  /** Whole seconds after which the same request may succeed (e.g. a cap reached), when the rule knows. */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    opts: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

/**
 * A failure that carries its HTTP status, a stable code and a human message: thrown by src/http and the domains' http/
 * folders (body parsing, idempotency, route checks) and by the request auth in src/auth (401/429/503); domain rules
 * throw DomainError instead.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);
/** 401 with the challenge RFC 9110 asks of every 401 (each credential here is a bearer token or key). */
export const unauthorized = (message = 'Unauthorized') => new ApiError(401, 'unauthorized', message, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new ApiError(404, 'not_found', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const payloadTooLarge = (message = 'Request body too large') => new ApiError(413, 'payload_too_large', message);
export const unsupportedMediaType = (message = 'Content-Type must be application/json') => new ApiError(415, 'unsupported_media_type', message);
/** 429 with Retry-After (whole seconds). */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', message, { 'Retry-After': String(retryAfterSeconds) });
export const unavailable = (message = 'Service unavailable') => new ApiError(503, 'unavailable', message);

/** The spec's error body. */
export const failureBody = (message: string) => ({ status: 'failed' as const, message });
