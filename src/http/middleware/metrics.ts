import type { Middleware } from 'koa';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppState } from '../state';

/** The api's Prometheus registry with request counts and latency histograms by route and status. */
export function createHttpMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const end = latency.startTimer();
    try {
      await next();
    } finally {
      // The matched route pattern keeps label cardinality bounded; unmatched paths share one label.
      const labels = { method: ctx.method, route: String(ctx._matchedRoute ?? 'unmatched'), status: String(ctx.status) };
      requests.inc(labels);
      end(labels);
    }
  };
  return { registry, middleware };
}
