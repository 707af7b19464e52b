// Tracing is off unless an exporter is set: no SDK module is loaded and nothing is exported. A child process loads the
// api's and worker's modules (the tracing hooks among them) with a chosen environment and makes one outbound request.
import { spawn } from 'node:child_process';
import { tracingSettings } from '../../src/telemetry/settings';
import { repoRoot } from '../helpers/env';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver';

jest.setTimeout(180_000);

const PROBE = `
const { startTracing } = require('./src/telemetry/tracing');
require('./src/http/app'); require('./src/http/main'); require('./worker/workers'); require('./worker/main'); require('./src/db/pool'); require('./src/telemetry/log');
(async () => {
  const tracing = startTracing('probe');
  await fetch(process.env.PROBE_URL + '/ping').then((r) => r.arrayBuffer());
  await tracing?.flush();
  const loaded = Object.keys(require.cache).filter((k) => /@opentelemetry[\\\\/](sdk-|exporter-|instrumentation|resources)|interceptors-opentelemetry/.test(k));
  console.log(JSON.stringify({ on: Boolean(tracing), loaded: loaded.length }));
  await tracing?.shutdown();
})();
`;

/** Runs the probe with env (and no other OTEL_* variable), answering what it printed. */
function probe(receiver: OtlpReceiver, env: Record<string, string>): Promise<{ on: boolean; loaded: number }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', PROBE], { cwd: repoRoot, env: { ...base, PROBE_URL: receiver.url, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`probe exited ${code}: ${err}`)))),
  );
}

describe('tracing off by default', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver?.close());

  it('loads no SDK and exports nothing without an exporter, with OTEL_SDK_DISABLED or with OTEL_TRACES_EXPORTER=none', async () => {
    const envs: Record<string, string>[] = [{}, { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' }, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' }, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' }];
    for (const env of envs) {
      expect(await probe(receiver, env)).toEqual({ on: false, loaded: 0 });
    }
    expect(receiver.contentTypes).toEqual([]);
  });

  it('exports the same request once the endpoint is set (the probe can see tracing)', async () => {
    expect(await probe(receiver, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toMatchObject({ on: true });
    expect(receiver.spans.map((s) => [s.service, s.attributes['url.full']])).toEqual([['probe', `${receiver.url}/ping`]]);
  });
});

describe('tracingSettings', () => {
  it('reads the standard variables', () => {
    expect(tracingSettings({})).toBeUndefined();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).toEqual({ url: 'http://c:4318/v1/traces', protocol: 'http/protobuf' });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({ url: 'http://t/x', protocol: 'http/json' });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })?.protocol).toBe('http/protobuf');
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({ url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf' });
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf or http\/json/);
    expect(() => tracingSettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/only otlp/);
  });
});
