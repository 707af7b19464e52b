import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { tracingSettings } from './settings';

/** The running tracing SDK of this process (what the Temporal worker's sinks and the tests need). */
export interface Tracing {
  resource: Resource;
  /** The scrubbing, batching processor every span goes through (workflow spans too, through the worker's sink). */
  processor: SpanProcessor;
  /** Exports what is queued. */
  flush(): Promise<void>;
  /** Flushes and stops the SDK (the process is then untraced). */
  shutdown(): Promise<void>;
}

let running: Tracing | undefined;

/** True once startTracing has started the SDK: hooks elsewhere do nothing (and load nothing) while it is false. */
export function tracingOn(): boolean {
  return running !== undefined;
}

/** The running SDK, if any. */
export function currentTracing(): Tracing | undefined {
  return running;
}

/**
 * Starts tracing from the standard OTEL_* variables (see tracingSettings) for a process named serviceName (OTEL_SERVICE_NAME
 * wins); without an exporter nothing is loaded and undefined is returned. The SDK is required only here, on demand.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (running) return running;
  const settings = tracingSettings(env);
  if (!settings) return undefined;
  const { Resource, envDetectorSync } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { RedactingSpanProcessor } = require('./redact') as typeof import('./redact');
  const { OTLPTraceExporter } =
    settings.protocol === 'http/json'
      ? (require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http'))
      : (require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto'));
  // OTEL_EXPORTER_OTLP_(TRACES_)HEADERS and _TIMEOUT are read by the exporter, OTEL_TRACES_SAMPLER(_ARG) by the provider.
  const exporter = new OTLPTraceExporter({ url: settings.url });
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': serviceName }))
    .merge(envDetectorSync.detect());
  const processor = new RedactingSpanProcessor(new BatchSpanProcessor(exporter));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register(); // W3C traceparent propagation, AsyncLocalStorage context
  // Every outbound request (vendors, webhooks, telephony, the model) goes through undici: a client span each, with
  // traceparent sent. The query string is never recorded (see redact.ts); url.full keeps only origin and path.
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new UndiciInstrumentation({ requestHook: (span, req) => span.setAttribute('url.full', `${req.origin}${req.path.replace(/[?#].*$/s, '')}`) }),
    ],
  });
  running = {
    resource,
    processor,
    flush: () => provider.forceFlush(),
    async shutdown() {
      unregister();
      running = undefined;
      await provider.shutdown();
      // What register() set globally goes too, so a later startTracing (tests) registers afresh.
      const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
      api.trace.disable();
      api.propagation.disable();
      api.context.disable();
    },
  };
  return running;
}
