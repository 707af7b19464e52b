import type { Metric, Registry } from 'prom-client';
import type { Db } from '../db/pool';
import { businessCounts, type BusinessCounts } from './db/business-counts';

type Values = { labels: Record<string, string>; value: number }[];

/** A metric read at scrape time, in the shape Registry.registerMetric reads (name, help, type, aggregator, get, reset). */
const metric = (name: string, help: string, type: 'gauge' | 'counter', values: () => Promise<Values> | Values): Metric => {
  const m = { name, help, type, aggregator: type === 'gauge' ? 'omit' : 'sum', get: async () => ({ ...m, values: await values() }), reset: () => undefined };
  return m as unknown as Metric;
};

/**
 * Business metrics on the api's /metrics: calls by status and outcome, enrollments by status (journey outcomes), and
 * automation runs by integration and outcome, counted in Postgres (all api processes see the same figures; one
 * statement at most every ttlMs however often it is scraped); this process's open chat sockets and the requests
 * its rate limits refused.
 */
export function registerBusinessMetrics(
  registry: Registry,
  sources: { db: Db; chatSockets: () => number; rateLimited: () => Record<string, number> },
  opts: { ttlMs?: number } = {},
): void {
  let cached: { at: number; counts: Promise<BusinessCounts> } | undefined;
  const counts = () => {
    if (!cached || Date.now() - cached.at > (opts.ttlMs ?? 10_000)) {
      const counts = businessCounts(sources.db);
      cached = { at: Date.now(), counts };
      counts.catch(() => (cached = undefined)); // a failed count is asked again at the next scrape
    }
    return cached.counts;
  };
  const from =
    <K extends keyof BusinessCounts>(key: K, labels: (row: BusinessCounts[K][number]) => Record<string, string>) =>
    async () =>
      (await counts())[key].map((row) => ({ labels: labels(row), value: row.n }));

  registry.registerMetric(
    metric(
      'switchboard_calls',
      'Calls (legs excluded) by status and outcome (none while not ended)',
      'gauge',
      from('calls', (r) => ({ status: r.status, outcome: r.outcome })),
    ),
  );
  registry.registerMetric(
    metric(
      'switchboard_enrollments',
      'Journey enrollments by status: active, completed, unenrolled, failed',
      'gauge',
      from('enrollments', (r) => ({ status: r.status })),
    ),
  );
  registry.registerMetric(
    metric(
      'switchboard_automation_runs',
      'Automation runs by integration and outcome (running, succeeded, failed)',
      'gauge',
      from('automationRuns', (r) => ({ integration: r.integration, outcome: r.outcome })),
    ),
  );
  registry.registerMetric(
    metric('switchboard_chat_sockets_open', 'Chat WebSockets open on this api process', 'gauge', () => [{ labels: {}, value: sources.chatSockets() }]),
  );
  registry.registerMetric(
    metric('switchboard_rate_limited_requests_total', 'Requests this api process refused with 429 by a rate limit, by limit', 'counter', () =>
      Object.entries(sources.rateLimited()).map(([limit, value]) => ({ labels: { limit }, value })),
    ),
  );
}
