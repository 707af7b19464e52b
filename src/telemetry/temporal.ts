import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import { currentTracing } from './tracing';

/**
 * The Temporal client's tracing interceptors: with tracing on, start, signal, update and query calls get a span each
 * and carry the trace to the workflow in a header; none (nothing loaded) when off.
 */
export function tracingClientInterceptors(): WorkflowClientInterceptor[] {
  if (!currentTracing()) return [];
  const { OpenTelemetryWorkflowClientInterceptor } =
    require('@temporalio/interceptors-opentelemetry/lib/client') as typeof import('@temporalio/interceptors-opentelemetry/lib/client');
  return [new OpenTelemetryWorkflowClientInterceptor()];
}

/** A worker's tracing parts: activity spans (continuing the workflow's trace), and the sink workflow spans leave by. */
export function workerTracing(): { activity: ActivityInterceptorsFactory[]; sinks?: InjectedSinks<OpenTelemetrySinks> } {
  const tracing = currentTracing();
  if (!tracing) return { activity: [] };
  const otel = require('@temporalio/interceptors-opentelemetry/lib/worker') as typeof import('@temporalio/interceptors-opentelemetry/lib/worker');
  return {
    activity: [(ctx) => ({ inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx), outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx) })],
    sinks: { exporter: otel.makeWorkflowExporter(tracing.processor, tracing.resource) },
  };
}
