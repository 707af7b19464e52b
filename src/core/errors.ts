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
  'oauth_browser_mismatch',
  'integration_not_allowed',
  'connection_test_too_soon',
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
  'unauthorized',
  'auth_unavailable',
  'login_rate_limited',
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
