// One trace from the api through the workflow to the outside: POST /v1/agent to the carrier's request (OTLP
// http/protobuf), POST /api/automation/execute to the vendor's (http/json), with no phone or email in any exported span.
import { SpanKind } from '@opentelemetry/api';
import { Worker } from '@temporalio/worker';
import { workerTracing } from '../../src/telemetry/temporal';
import { temporalDataConverter } from '../../src/temporal/client';
import { callWorkflowId } from '../../src/temporal/ids';
import { tracedBundlePath } from '../../worker/bundle';
import { startTracing, type Tracing } from '../../src/telemetry/tracing';
import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { testEnv } from '../helpers/env';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(300_000);

const OTEL_KEYS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_BSP_SCHEDULE_DELAY'];

/** Tracing on for this describe block, exporting to a fresh receiver in the given protocol. */
function traced(protocol: 'http/protobuf' | 'http/json', appOpts: Parameters<typeof startTestApp>[0]) {
  const ctx = {} as { receiver: OtlpReceiver; tracing: Tracing; app: TestApp };
  beforeAll(async () => {
    ctx.receiver = await startOtlpReceiver();
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: ctx.receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_BSP_SCHEDULE_DELAY: '200' });
    ctx.tracing = startTracing('switchboard-test')!;
    ctx.app = await startTestApp(appOpts);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.tracing?.shutdown();
    await ctx.receiver?.close();
    for (const k of OTEL_KEYS) delete process.env[k];
  });
  return ctx;
}

/** The W3C traceparent's trace and parent span ids. */
function parseTraceparent(value: unknown): { traceId: string; spanId: string } {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(value));
  if (!m) throw new Error(`not a traceparent: ${String(value)}`);
  return { traceId: m[1]!, spanId: m[2]! };
}

/** The spans whose parent is not among spans. */
function roots(spans: ReceivedSpan[]): ReceivedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
}

/** The spans of a trace once every wanted name is among them (flushing the SDK while waiting). */
async function traceWith(ctx: { receiver: OtlpReceiver; tracing: Tracing }, traceId: string, wanted: RegExp[]): Promise<ReceivedSpan[]> {
  return eventually(
    async () => {
      await ctx.tracing.flush();
      const spans = ctx.receiver.spans.filter((s) => s.traceId === traceId);
      // Spans leave in batches as they end: wait until every parent has arrived too.
      return wanted.every((w) => spans.some((s) => w.test(s.name))) && roots(spans).length === 1 && spans;
    },
    60_000,
    `spans ${wanted.join(', ')} in one connected trace ${traceId}`,
  );
}

/**
 * The trace is one tree (not several sharing an id) and the server span is at its top: the test's own request (a fetch,
 * traced like every undici request of this process) is the only span above it.
 */
function expectOneTree(spans: ReceivedSpan[], serverName: string) {
  const top = roots(spans);
  const shape = spans.map((s) => `${s.name} ${s.spanId} <- ${s.parentSpanId || '-'}`).join('\n');
  const server = spans.find((s) => s.name === serverName);
  const ok = top.length === 1 && server && (server === top[0] || (server.parentSpanId === top[0]!.spanId && top[0]!.kind === SpanKind.CLIENT + 1));
  if (!ok) throw new Error(`not one tree from ${serverName}:\n${shape}`);
}

describe('POST /v1/agent, exported as http/protobuf', () => {
  const ctx = traced('http/protobuf', { workers: true, simulator: { speed: 20 } });

  it('is one trace from the server span to the carrier request, with no phone number exported', async () => {
    const { app } = ctx;
    const ws = await callingWorkspace(app);
    const phone = phoneEnding('0003');
    const res = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone } });
    expect(res.status).toBe(200);
    await callResult(app, res.body.call_id);
    // A lookup by phone: its query string must not reach a span either.
    expect((await app.request('GET', `/v1/lead/get?phone=%2B${phone}`, { key: ws.apiKey })).status).toBeLessThan(500);

    const placed = app.simulator!.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.body.includes(phone));
    expect(placed).toBeDefined();
    const parent = parseTraceparent(placed!.headers.traceparent);
    const spans = await traceWith(ctx, parent.traceId, [/^POST \/v1\/agent$/, /^StartWorkflow:outboundCall$/, /^RunWorkflow:outboundCall$/, /^RunActivity:/]);
    const named = (re: RegExp) => spans.filter((s) => re.test(s.name));
    expect(named(/^POST \/v1\/agent$/)[0]).toMatchObject({
      kind: SpanKind.SERVER + 1,
      attributes: { 'http.route': '/v1/agent', 'http.response.status_code': 200 },
    });
    expect(named(/^StartActivity:/).length).toBeGreaterThan(0);
    // The carrier request's own client span is the parent the carrier was told of.
    const outgoing = spans.find((s) => s.spanId === parent.spanId);
    expect(outgoing).toMatchObject({ kind: SpanKind.CLIENT + 1, attributes: { 'http.request.method': 'POST' } });
    expect(String(outgoing!.attributes['url.full'])).toMatch(/\/Calls\.json$/);
    expect(spans.some((s) => s.attributes['db.system'] === 'postgresql')).toBe(true);
    expectOneTree(spans, 'POST /v1/agent');

    const exported = ctx.receiver.bodies.join('\n');
    expect(ctx.receiver.contentTypes.every((t) => t === 'application/x-protobuf')).toBe(true);
    for (const number of [phone, phone.slice(1), ...ws.numbers, '18005550100']) expect(exported).not.toContain(number);
    expect(ctx.receiver.spans.some((s) => s.name === 'GET /v1/lead/get')).toBe(true);

    // The traced run replays with the interceptors bundled (a traced worker's bundle) and without them (an untraced
    // worker's): tracing keeps the workflow deterministic.
    const workflowId = callWorkflowId(res.body.call_id);
    const history = await app.temporal.client.workflow.getHandle(workflowId).fetchHistory();
    expect(Object.keys(history.events![0]!.workflowExecutionStartedEventAttributes!.header!.fields!)).toContain('_tracer-data');
    for (const codePath of [tracedBundlePath(testEnv('bundlePath')), testEnv('bundlePath')]) {
      await Worker.runReplayHistory(
        { workflowBundle: { codePath }, dataConverter: temporalDataConverter(app.config), sinks: workerTracing().sinks },
        history,
        workflowId,
      );
    }
  });
});

describe('POST /api/automation/execute, exported as http/json', () => {
  let fake: VendorFake;
  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(async () => {
    await fake?.stop();
  });
  const ctx = traced('http/json', { workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });

  it('is one trace from the server span to the vendor request, with no email or phone exported', async () => {
    const { app } = ctx;
    const ws = await app.newWorkspace({ superuser: true });
    fake.on('POST', '/contacts', { status: 200, body: { ok: true } });
    const email = 'ann.traced@example.com';
    const phone = '+12125550147';
    const body = {
      automationType: 'proxy',
      nodeParams: {
        params: {
          apiMethod: 'POST',
          apiURL: `${fake.url}/contacts?email=${encodeURIComponent(email)}&phone=${encodeURIComponent(phone)}`,
          requestBodyJson: { email, phone },
        },
      },
    };
    const res = await app.request('POST', '/api/automation/execute', { headers: { 'x-key': ws.superuserKey }, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });

    const [received] = fake.received('POST', '/contacts');
    const parent = parseTraceparent(received!.headers.traceparent);
    const spans = await traceWith(ctx, parent.traceId, [/^POST \/api\/automation\/execute$/, /^StartWorkflow:/, /^RunWorkflow:/, /^RunActivity:/]);
    const outgoing = spans.find((s) => s.spanId === parent.spanId);
    expect(outgoing).toMatchObject({ kind: SpanKind.CLIENT + 1, attributes: { 'url.full': `${fake.url}/contacts` } });
    expectOneTree(spans, 'POST /api/automation/execute');

    const exported = ctx.receiver.bodies.join('\n');
    expect(ctx.receiver.contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
    for (const secret of [email, encodeURIComponent(email), phone, phone.slice(1), encodeURIComponent(phone)]) expect(exported).not.toContain(secret);
  });
});
