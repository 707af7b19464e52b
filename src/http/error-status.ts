import { ApiError, DomainError, type DomainErrorCode } from '../errors';

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
  campaign_not_found: 404,
  campaign_ended: 409,
  import_not_found: 404,
} as const satisfies Record<DomainErrorCode, number>;

/** The status a known error answers with (DomainError by its code, ApiError, a library's 4xx http-error); undefined for anything else. */
export function knownErrorStatus(err: unknown): number | undefined {
  if (err instanceof DomainError) return STATUS_OF_DOMAIN_CODE[err.code];
  if (err instanceof ApiError) return err.status;
  // Koa/http-errors thrown by libraries (e.g. ctx.throw); their messages are safe to show.
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}
