import type { Middleware } from 'koa';
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { AppState } from '../state';

/** Upper bounds of the latency histogram, in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One method/route/status combination: its request count, latency sum and per-bucket (non-cumulative) counts. */
interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  buckets: number[];
}

/**
 * Request counts and latencies by method, route and status. A request costs one Map lookup and a few additions;
 * the Prometheus text is built at scrape time from these sums (prom-client's own Counter and Histogram validate and
 * hash the labels on every observation, several µs per request on the hot path).
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: BUCKETS.map(() => 0) }));
    s.count++;
    s.sum += seconds;
    const i = BUCKETS.findIndex((bound) => seconds <= bound);
    if (i >= 0) s.buckets[i]!++;
  }

  /** `http_requests_total` and `http_request_duration_seconds` in prom-client's metric shape, for a Registry. */
  metrics(): Metric[] {
    const counter = {
      name: 'http_requests_total',
      help: 'HTTP requests by method, route and status',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({ ...counter, values: [...this.series.values()].map((s) => ({ labels: s.labels, value: s.count })) }),
      reset: () => this.series.clear(),
    };
    const histogram = {
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({ ...histogram, values: [...this.series.values()].flatMap((s) => histogramValues(histogram.name, s)) }),
      reset: () => this.series.clear(),
    };
    // Registry.registerMetric reads only these fields (name, help, type, aggregator, get, reset).
    return [counter, histogram] as unknown as Metric[];
  }
}

/** A series as Prometheus histogram lines: cumulative buckets with `le`, then +Inf, sum and count. */
function histogramValues(name: string, s: Series) {
  let cumulative = 0;
  return [
    ...BUCKETS.map((le, i) => ({ metricName: `${name}_bucket`, labels: { le, ...s.labels }, value: (cumulative += s.buckets[i]!) })),
    { metricName: `${name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count },
    { metricName: `${name}_sum`, labels: s.labels, value: s.sum },
    { metricName: `${name}_count`, labels: s.labels, value: s.count },
  ];
}

/** The api's Prometheus registry with request counts and latency histograms by route and status. */
export function createHttpMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics();
  for (const metric of requests.metrics()) registry.registerMetric(metric);
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // The matched route pattern keeps label cardinality bounded; unmatched paths share one label.
      requests.record(
        ctx.method,
        ctx._matchedRoute === undefined ? 'unmatched' : String(ctx._matchedRoute),
        ctx.status,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    }
  };
  return { registry, middleware };
}
