// Tracing is off unless an exporter is set: no SDK module is loaded and nothing is exported. A child process loads the
// api's and worker's modules (the tracing hooks among them) with a chosen environment and makes one outbound request.
import { spawn } from 'node:child_process';
import { tracingSettings } from '../../src/telemetry/settings';
import { repoRoot } from '../helpers/env';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver';

jest.setTimeout(180_000);

const PROBE = `
const { startTracing } = require('./src/telemetry/tracing');
require('./src/api/app'); require('./src/api/main'); require('./worker/workers'); require('./worker/main'); require('./src/db/pool');
const { createLogger } = require('./src/telemetry/log');
const { trace } = require('@opentelemetry/api');
(async () => {
  const tracing = startTracing('probe');
  const logger = createLogger('info', 'probe');
  await trace.getTracer('probe').startActiveSpan('probe', async (span) => {
    logger.info('inside');
    await fetch(process.env.PROBE_URL + '/ping').then((r) => r.arrayBuffer());
    span.end();
  });
  await tracing?.flush();
  const loaded = Object.keys(require.cache).filter((k) => /@opentelemetry[\\\\/](sdk-|exporter-|instrumentation|resources)|interceptors-opentelemetry/.test(k));
  console.log(JSON.stringify({ on: Boolean(tracing), loaded: loaded.length }));
  await tracing?.shutdown();
})();
`;

/** Runs the probe with env (and no other OTEL_* variable), answering what it printed. */
function probe(receiver: OtlpReceiver, env: Record<string, string>): Promise<{ on: boolean; loaded: number; logged: Record<string, unknown> }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', PROBE], {
    cwd: repoRoot,
    env: { ...base, PROBE_URL: receiver.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`probe exited ${code}: ${err}`));
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ ...(lines.pop() as { on: boolean; loaded: number }), logged: lines.find((l) => l.msg === 'inside')! });
    }),
  );
}

describe('tracing off by default', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver?.close());

  it('loads no SDK and exports nothing without an exporter, with OTEL_SDK_DISABLED or with OTEL_TRACES_EXPORTER=none', async () => {
    const envs: Record<string, string>[] = [
      {},
      { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' },
    ];
    for (const env of envs) {
      const seen = await probe(receiver, env);
      expect({ on: seen.on, loaded: seen.loaded, traceId: seen.logged.trace_id }).toEqual({ on: false, loaded: 0, traceId: undefined });
    }
    expect(receiver.contentTypes).toEqual([]);
  });

  it('exports the same request once the endpoint is set (the probe can see tracing), and the log line names its trace', async () => {
    const seen = await probe(receiver, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(seen.on).toBe(true);
    const [outer, request] = [receiver.spans.find((s) => s.name === 'probe'), receiver.spans.find((s) => s.attributes['url.full'] === `${receiver.url}/ping`)];
    expect(request).toMatchObject({ service: 'probe', traceId: outer!.traceId, parentSpanId: outer!.spanId });
    expect(seen.logged).toMatchObject({ trace_id: outer!.traceId, span_id: outer!.spanId });
  });
});

describe('tracingSettings', () => {
  it('reads the standard variables', () => {
    expect(tracingSettings({})).toBeUndefined();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).toEqual({ url: 'http://c:4318/v1/traces', protocol: 'http/protobuf' });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
    ).toEqual({ url: 'http://t/x', protocol: 'http/json' });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      })?.protocol,
    ).toBe('http/protobuf');
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({ url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf' });
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf or http\/json/);
    expect(() => tracingSettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/only otlp/);
  });
});
