// Child process of bench/tracing.ts: the tracing pipeline's own CPU per lead lookup, with no request around it. A lookup
// traced by the api is a server span (src/telemetry/http-server.ts) around one statement span (db-spans.ts), scrubbed
// and exported by the SDK (tracing.ts); here the same code runs around a statement that is only a resolved promise,
// first untraced, then traced with every span exported to the parent's sink. The difference is the least any traced
// lookup can cost, whatever the api does besides. Prints one JSON line: CPU µs per lookup off and on.
import { serverSpans } from '../../src/telemetry/http-server';
import { tracedQuery } from '../../src/telemetry/db-spans';
import { startTracing } from '../../src/telemetry/tracing';

const lookups = Number(process.argv[2] ?? 200_000);
const STATEMENT = 'SELECT id, phone, tags FROM leads WHERE workspace_id = $1 AND id = $2';

/** What the server span reads of a Koa context: a GET of the lookup route, answered 200. */
const request = () => ({ method: 'GET', headers: {} as Record<string, string>, status: 200, _matchedRoute: '/v1/lead/get' });

/** CPU µs per lookup over n lookups, yielding to the event loop every 64 as a server between requests does. */
async function cpuPerLookup(n: number, lookup: () => Promise<unknown>, settle: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    await lookup();
    if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
  }
  await settle();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function main(): Promise<void> {
  const statement = () => tracedQuery(STATEMENT, 'lead_by_id', () => Promise.resolve({ rows: [] }));
  await cpuPerLookup(lookups / 4, statement, async () => undefined); // warm-up
  const off = await cpuPerLookup(lookups, statement, async () => undefined);

  // The parent set OTEL_* (its sink, always_on) before forking this process.
  const tracing = startTracing('switchboard-api-floor');
  if (!tracing) throw new Error('sdk-floor: OTEL_EXPORTER_OTLP_ENDPOINT is not set');
  const middleware = serverSpans();
  const traced = () => middleware(request(), statement);
  await cpuPerLookup(lookups / 4, traced, () => tracing.flush());
  const on = await cpuPerLookup(lookups, traced, () => tracing.flush());
  await tracing.shutdown();
  process.stdout.write(`${JSON.stringify({ lookups, off, on })}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
