import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as exported, ids in hex whichever encoding carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
  /** The whole span as decoded (for the check that no personal data was exported). */
  raw: unknown;
}

/** A local OTLP/HTTP traces receiver: POST /v1/traces in http/json and http/protobuf, keeping every span. */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The content types the exports came in. */
  contentTypes: string[];
  /** Every export's body as decoded JSON text (personal-data checks read this). */
  bodies: string[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
type KeyValue = { key: string; value?: AnyValue };

const valueOf = (v: AnyValue | undefined): unknown =>
  v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue)) ?? v?.boolValue ?? v?.doubleValue ?? v?.arrayValue?.values?.map(valueOf);
const attrs = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
// JSON carries ids as hex; protobuf decoded with bytes: 'base64' as base64.
const hex = (id: string | undefined, base64: boolean) => (id ? (base64 ? Buffer.from(id, 'base64').toString('hex') : id) : '');

function decode(body: Buffer, contentType: string): { json: unknown; base64Ids: boolean } {
  if (contentType.includes('json')) return { json: JSON.parse(body.toString('utf8')), base64Ids: false };
  // The proto definitions the exporter itself encodes with.
  const root = require('@opentelemetry/otlp-transformer/build/src/generated/root');
  const type = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
  return { json: type.toObject(type.decode(body), { longs: String, bytes: String, defaults: false }), base64Ids: true };
}

/** Starts a receiver on a free port; set OTEL_EXPORTER_OTLP_ENDPOINT to its url. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const contentType = String(req.headers['content-type'] ?? '');
      contentTypes.push(contentType);
      const { json, base64Ids } = decode(Buffer.concat(chunks), contentType);
      bodies.push(JSON.stringify(json));
      const request = json as { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] };
      for (const rs of request.resourceSpans ?? []) {
        const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: hex(s.traceId as string, base64Ids),
              spanId: hex(s.spanId as string, base64Ids),
              parentSpanId: hex(s.parentSpanId as string | undefined, base64Ids),
              name: String(s.name),
              kind: Number(s.kind),
              service,
              attributes: attrs(s.attributes as KeyValue[]),
              raw: s,
            });
          }
      }
      res
        .writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' })
        .end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    bodies,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
