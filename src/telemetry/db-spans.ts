import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { currentTracing, type Tracing } from './tracing';

let cached: { tracing: Tracing; tracer: Tracer } | undefined;

/** The running SDK's tracer, looked up once per start of the SDK rather than per statement. */
function tracer(tracing: Tracing): Tracer {
  if (cached?.tracing !== tracing) cached = { tracing, tracer: trace.getTracer('switchboard-db') };
  return cached.tracer;
}

function fail(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as { code?: string }).code ?? 'error' });
  span.end();
}

/**
 * Runs one Postgres statement in a CLIENT span (only inside a traced operation: background polling starts no traces).
 * The statement text is recorded as written, with its $n placeholders; the parameters never are.
 */
export function tracedQuery<T>(text: string, preparedName: string | undefined, run: () => Promise<T>): Promise<T> {
  const tracing = currentTracing();
  if (!tracing) return run();
  const parent = context.active();
  if (!trace.getSpan(parent)) return run();
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  // Not made the active span: nothing inside a statement starts a span, and a context switch per statement is work
  // every traced request pays for. Attributes are set after the start: given to startSpan, the SDK copies and checks
  // them twice more (for samplers, and none of those OTEL_TRACES_SAMPLER offers reads them).
  const span = tracer(tracing).startSpan(preparedName ? `${operation} ${preparedName}` : operation, { kind: SpanKind.CLIENT }, parent);
  span.setAttribute('db.system', 'postgresql');
  span.setAttribute('db.operation.name', operation);
  span.setAttribute('db.query.text', text.slice(0, 2000));
  if (preparedName) span.setAttribute('db.statement.name', preparedName);
  let pending: Promise<T>;
  try {
    pending = run();
  } catch (err) {
    fail(span, err);
    throw err;
  }
  return pending.then(
    (result) => {
      span.end();
      return result;
    },
    (err: unknown) => {
      fail(span, err);
      throw err;
    },
  );
}
