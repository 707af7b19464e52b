import { Registry } from 'prom-client';
import { RequestMetrics } from '../../src/http/middleware/metrics';

describe('RequestMetrics', () => {
  it('exports counts and a cumulative latency histogram per method, route and status in the Prometheus text format', async () => {
    const requests = new RequestMetrics();
    const registry = new Registry();
    for (const metric of requests.metrics()) registry.registerMetric(metric);
    requests.record('GET', '/v1/lead/get', 200, 0.0007);
    requests.record('GET', '/v1/lead/get', 200, 0.003);
    requests.record('GET', '/v1/lead/get', 200, 7);
    requests.record('GET', '/v1/lead/get', 404, 0.02);
    const text = await registry.metrics();
    const line = (name: string, labels: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(`${name}{${labels}} `))
        ?.split(' ')[1];
    const ok = 'method="GET",route="/v1/lead/get",status="200"';
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(line('http_requests_total', ok)).toBe('3');
    expect(line('http_requests_total', 'method="GET",route="/v1/lead/get",status="404"')).toBe('1');
    expect(line('http_request_duration_seconds_bucket', `le="0.001",${ok}`)).toBe('1');
    expect(line('http_request_duration_seconds_bucket', `le="0.0025",${ok}`)).toBe('1');
    expect(line('http_request_duration_seconds_bucket', `le="0.005",${ok}`)).toBe('2');
    expect(line('http_request_duration_seconds_bucket', `le="5",${ok}`)).toBe('2');
    expect(line('http_request_duration_seconds_bucket', `le="+Inf",${ok}`)).toBe('3');
    expect(Number(line('http_request_duration_seconds_sum', ok))).toBeCloseTo(7.0037, 6);
    expect(line('http_request_duration_seconds_count', ok)).toBe('3');
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('http_requests_total{');
  });
});
