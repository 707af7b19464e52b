/** Stable codes a provider call fails with; the activity boundary turns them into Temporal failure types. */
export const TELEPHONY_ERROR_CODES = [
  'invalid_call_request', // our own request is malformed (a phone not in E.164, a bad URL): nothing was sent
  'provider_rejected', // 4xx other than 401/403/404/429: the request itself is wrong; repeating it cannot help
  'provider_auth_failed', // 401/403: account sid or auth token wrong
  'provider_call_not_found', // 404 on a call resource
  'provider_rate_limited', // 429
  'provider_unavailable', // 5xx, network error or timeout
  'provider_bad_response', // a 2xx whose body is not a call resource
] as const;
export type TelephonyErrorCode = (typeof TELEPHONY_ERROR_CODES)[number];

/** A provider failure: a stable code, whether repeating the request may succeed, and how long to wait first. */
export class TelephonyError extends Error {
  constructor(
    readonly code: TelephonyErrorCode,
    message: string,
    readonly retryable: boolean,
    /** From the provider's Retry-After, when it sent one. */
    readonly retryAfterMs: number | null = null,
    /** The provider's HTTP status, when there was a response. */
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'TelephonyError';
  }
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The error for an HTTP failure status: 429 and 5xx are retryable, other 4xx are not. */
export function errorForStatus(status: number, detail: string, retryAfter: string | null): TelephonyError {
  const wait = parseRetryAfter(retryAfter);
  if (status === 429) return new TelephonyError('provider_rate_limited', `provider rate limit: ${detail}`, true, wait, status);
  if (status >= 500) return new TelephonyError('provider_unavailable', `provider error ${status}: ${detail}`, true, wait, status);
  if (status === 401 || status === 403) return new TelephonyError('provider_auth_failed', `provider refused the credentials: ${detail}`, false, null, status);
  if (status === 404) return new TelephonyError('provider_call_not_found', `provider has no such resource: ${detail}`, false, null, status);
  return new TelephonyError('provider_rejected', `provider rejected the request (${status}): ${detail}`, false, null, status);
}
