import { trace } from '@opentelemetry/api';
import { tracingOn } from './tracing';

/** pino mixin: the active span's trace_id and span_id on every line logged inside a traced operation. */
export function traceIds(): Record<string, string> {
  if (!tracingOn()) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
