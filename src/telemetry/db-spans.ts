import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracingOn } from './tracing';

const tracer = () => trace.getTracer('switchboard-db');

/**
 * Runs one Postgres statement in a CLIENT span (only inside a traced operation: background polling starts no traces).
 * The statement text is recorded as written, with its $n placeholders; the parameters never are.
 */
export function tracedQuery<T>(text: string, preparedName: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!tracingOn() || !trace.getActiveSpan()) return run();
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  const attributes = {
    'db.system': 'postgresql',
    'db.operation.name': operation,
    'db.query.text': text.slice(0, 2000),
    ...(preparedName ? { 'db.statement.name': preparedName } : {}),
  };
  return tracer().startActiveSpan(preparedName ? `${operation} ${preparedName}` : operation, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await run();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as { code?: string }).code ?? 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}
