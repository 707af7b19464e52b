/**
 * Which traces exporter the standard OTEL_* variables ask for. Tracing is off (no SDK loaded) unless an OTLP endpoint
 * is set or OTEL_TRACES_EXPORTER says otlp; OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off.
 */
export interface TracingSettings {
  /** Where spans are POSTed (the traces endpoint itself). */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
}

const DEFAULT_ENDPOINT = 'http://localhost:4318';

/** The exporter settings from env, or undefined when tracing is off; an unsupported exporter or protocol throws. */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.includes('none')) return undefined;
  const unsupported = exporters.filter((e) => e !== 'otlp');
  if (unsupported.length) throw new Error(`OTEL_TRACES_EXPORTER: only otlp (or none) is supported, not ${unsupported.join(', ')}`);
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!tracesEndpoint && !endpoint && exporters.length === 0) return undefined;
  // The signal-specific endpoint is used as given; the general one gets the signal's path (OTLP exporter spec).
  const url = tracesEndpoint || `${(endpoint || DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new Error(`OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL: http/protobuf or http/json, not ${protocol}`);
  }
  return { url, protocol };
}
