// The spans one traced request makes (the server span and a statement's CLIENT span), as exported, and what is active
// while a statement runs. Tracing exports to a local OTLP receiver (http/json).
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracedQuery } from '../../src/telemetry/db-spans';
import { serverSpans } from '../../src/telemetry/http-server';
import { startTracing, type Tracing } from '../../src/telemetry/tracing';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { eventually } from '../helpers/webhook-receiver';

const SQL = 'SELECT id, phone FROM leads WHERE workspace_id = $1 AND phone = $2';

let receiver: OtlpReceiver;
let tracing: Tracing;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = startTracing('spans-test', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })!;
});

afterAll(async () => {
  await tracing?.shutdown();
  await receiver?.close();
});

/** A request through the server-span middleware: `handle` runs as the route would, then the route is matched. */
async function request(handle: () => Promise<void>): Promise<void> {
  const ctx = { method: 'GET', headers: {}, status: 404, _matchedRoute: undefined as string | undefined };
  await serverSpans()(ctx, async () => {
    await handle();
    ctx._matchedRoute = '/v1/lead/get';
    ctx.status = 200;
  });
}

/** The exported spans of the one request traced since the last beforeEach, once count of them arrived. */
async function exported(count: number): Promise<ReceivedSpan[]> {
  return eventually(async () => {
    await tracing.flush();
    const server = receiver.spans.find((s) => s.name === 'GET /v1/lead/get');
    const spans = server ? receiver.spans.filter((s) => s.traceId === server.traceId) : [];
    return spans.length === count && spans;
  });
}

beforeEach(() => receiver.spans.splice(0));

describe('a traced request', () => {
  it('exports its statement as a CLIENT span under the server span, with the statement and never its parameters', async () => {
    let during: string | undefined;
    await request(async () => {
      await tracedQuery(SQL, 'lead_by_phone', async () => {
        during = trace.getActiveSpan()?.spanContext().spanId;
        return { rows: [] };
      });
    });
    const spans = await exported(2);
    const server = spans.find((s) => s.kind === SpanKind.SERVER + 1)!;
    const statement = spans.find((s) => s.kind === SpanKind.CLIENT + 1)!;
    expect(server).toMatchObject({
      name: 'GET /v1/lead/get',
      attributes: { 'http.request.method': 'GET', 'http.route': '/v1/lead/get', 'http.response.status_code': 200 },
    });
    expect(statement.name).toBe('SELECT lead_by_phone');
    expect(statement.parentSpanId).toBe(server.spanId);
    expect(statement.attributes).toEqual({
      'db.system': 'postgresql',
      'db.operation.name': 'SELECT',
      'db.query.text': SQL,
      'db.statement.name': 'lead_by_phone',
    });
    // The statement's span is not made the active one (a context switch per statement saved): what runs inside a
    // statement, and a log line written there, belongs to the request's span.
    expect(during).toBe(server.spanId);
  });

  it('marks a failed statement as an error with its SQLSTATE, and passes the failure on', async () => {
    const failure = Object.assign(new Error('duplicate key'), { code: '23505' });
    await request(async () => {
      await expect(tracedQuery('INSERT INTO leads (phone) VALUES ($1)', undefined, () => Promise.reject(failure))).rejects.toBe(failure);
    });
    const statement = (await exported(2)).find((s) => s.kind === SpanKind.CLIENT + 1)!;
    expect(statement.name).toBe('INSERT');
    expect(statement.attributes).not.toHaveProperty('db.statement.name');
    expect((statement.raw as { status?: { code?: number; message?: string } }).status).toEqual({ code: SpanStatusCode.ERROR, message: '23505' });
  });

  it('makes no span for a statement outside any trace (background work)', async () => {
    await tracedQuery(SQL, 'lead_by_phone', async () => ({ rows: [] }));
    await tracing.flush();
    expect(receiver.spans).toEqual([]);
  });
});
