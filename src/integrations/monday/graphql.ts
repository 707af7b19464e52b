import type { VendorHttp, VendorResponse } from '../define';
import { VendorError } from '../define';

interface GraphqlError {
  message?: string;
  extensions?: { code?: string; retry_in_seconds?: number };
}

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: GraphqlError[];
  error_message?: string;
  error_code?: string;
}

/** Codes monday.com reports in a 200 body for limits that pass with time. */
const RETRYABLE = new Set(['COMPLEXITY_BUDGET_EXHAUSTED', 'ComplexityException', 'RATE_LIMIT_EXCEEDED', 'DAILY_LIMIT_EXCEEDED']);

/** monday.com answers GraphQL and many API errors with HTTP 200 and `errors` (or the older `error_message`). */
export function mondayErrorInBody(res: VendorResponse): VendorError | undefined {
  const body = res.body as GraphqlBody | null;
  if (!body || typeof body !== 'object') return undefined;
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code ?? body.error_code;
    const retryable = code !== undefined && RETRYABLE.has(code);
    const retryAfterMs = first.extensions?.retry_in_seconds !== undefined ? first.extensions.retry_in_seconds * 1000 : undefined;
    const message = body.errors!.map((e) => e.message ?? 'error').join('; ');
    return new VendorError(retryable ? 'vendor_rate_limited' : 'vendor_error_in_body', `monday.com: ${message}`, retryable, res.status, retryAfterMs);
  }
  if (body.error_message) return new VendorError('vendor_error_in_body', `monday.com: ${body.error_message}`, false, res.status);
  return undefined;
}

/** Runs one GraphQL operation against `/v2` and returns its `data`. */
export async function mondayGraphql<T>(http: VendorHttp, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await http.request<GraphqlBody>({ method: 'POST', path: '/v2', json: { query, variables } });
  if (!res.body?.data) throw new VendorError('vendor_error_in_body', 'monday.com answered without data', false, res.status);
  return res.body.data as T;
}
