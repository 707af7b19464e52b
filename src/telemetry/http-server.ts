import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** The few parts of a Koa context the server span reads (no Koa import: telemetry sits below the HTTP layer). */
interface RequestContext {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  _matchedRoute?: string | RegExp;
}

/**
 * A SERVER span per request, continuing the caller's W3C traceparent, named by the matched route template
 * (`POST /v1/agent`), so the path's ids and the query string (phones, emails) are never recorded.
 */
export function serverSpans() {
  const tracer = trace.getTracer('switchboard-http');
  return async (ctx: RequestContext, next: () => Promise<unknown>): Promise<void> => {
    const parent = propagation.extract(context.active(), ctx.headers);
    // Attributes set after the start, not given to it: see tracedQuery.
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER }, parent);
    span.setAttribute('http.request.method', ctx.method);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : undefined;
      if (route) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
