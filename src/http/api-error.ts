/**
 * A failure that carries its HTTP status, a stable code and a human message: thrown only by src/http and the domains' http/
 * folders (body parsing, idempotency, route checks, header auth); domain code throws DomainError instead.
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
