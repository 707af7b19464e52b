import { parseFlowGraph } from '../../src/chat/flow-schema';
import { importFlow } from '../../src/chat/db/flows';
import { startApi, type RunningApi } from '../../src/api/main';
import { callingWorkspace, callResult, phoneEnding } from '../helpers/calls';
import { ChatClient } from '../helpers/chat-client';
import { finished, importSteps, newPhone } from '../helpers/journeys';
import { startTestApp, testConfig, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

/** A sample's value in Prometheus text (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (m?.[1] === name && want.every((w) => (m[2] ?? '').split(',').includes(w))) return Number(m[3]);
  }
  return 0;
}

describe('business metrics on /metrics', () => {
  let app: TestApp;
  let fake: VendorFake;
  beforeAll(async () => {
    fake = await startVendorFake();
    app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });
  const scrape = async () => (await app.request('GET', '/metrics')).body as string;

  it('counts calls by outcome, enrollments by status, automation runs by integration and outcome, and open chat sockets', async () => {
    const before = await scrape();
    const calls = (t: string) => sample(t, 'switchboard_calls', { status: 'completed', outcome: 'human' });
    const enrollments = (t: string) => sample(t, 'switchboard_enrollments', { status: 'completed' });
    const runs = (t: string) => sample(t, 'switchboard_automation_runs', { integration: 'proxy', outcome: 'succeeded' });

    const ws = await callingWorkspace(app);
    const placed = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding('0001') } });
    expect(placed.status).toBe(200);
    expect((await callResult(app, placed.body.call_id)).outcome).toBe('human');
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'hello', kind: 'tag', tag: 'metered' },
      { id: 'stop', kind: 'end' },
    ]);
    const enrolled = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, record: { phone: newPhone() } } });
    await finished(app, journey.id, enrolled.body.lead_id);
    fake.on('POST', '/ok', { status: 200, body: {} });
    const run = await app.request('POST', '/api/automation/execute', {
      headers: { 'x-key': ws.apiKey },
      body: { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/ok`, requestBodyJson: {} } } },
    });
    expect(run.body.success).toBe(true);

    // Counted in Postgres at most every 10 s: the figures move once the cached count expires.
    const after = await eventually(
      async () => {
        const text = await scrape();
        return calls(text) > calls(before) && enrollments(text) > enrollments(before) && runs(text) > runs(before) && text;
      },
      60_000,
      'the business counts to move',
    );
    expect([calls(after) - calls(before), enrollments(after) - enrollments(before), runs(after) - runs(before)]).toEqual([1, 1, 1]);

    const flow = await importFlow(app.db, ws.workspaceId, {
      name: 'metered',
      publicChat: true,
      ownerName: 'Ava',
      graph: parseFlowGraph({
        nodes: [
          { id: 'start', type: 'start', next: 'ask' },
          { id: 'ask', type: 'question', text: 'Name?', field: 'first_name', next: 'end' },
          { id: 'end', type: 'end' },
        ],
      }),
    });
    expect(sample(await scrape(), 'switchboard_chat_sockets_open')).toBe(0);
    const chat = new ChatClient(`${app.url.replace(/^http/, 'ws')}/webchat/flow/${flow.id}/session/null/r/false`);
    await chat.take(3);
    expect(sample(await scrape(), 'switchboard_chat_sockets_open')).toBe(1);
    chat.ws.close();
    await chat.closed;
    await eventually(async () => sample(await scrape(), 'switchboard_chat_sockets_open') === 0, 30_000, 'the socket to be counted closed');
  });
});

describe('/metrics protection', () => {
  it('counts rate-limited requests by limit, and takes only the METRICS_TOKEN when one is set (401 with WWW-Authenticate)', async () => {
    const token = 'metrics-token-0123456789';
    const app = await startTestApp({ config: { RATE_LIMIT_PER_KEY: '2', METRICS_TOKEN: token } });
    try {
      const { apiKey } = await app.newWorkspace();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await app.request('GET', '/v1/me', { key: apiKey })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await app.request('GET', '/metrics');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      expect((await app.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      const ok = await app.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(sample(ok.body, 'switchboard_rate_limited_requests_total', { limit: 'api_key' })).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('with METRICS_PORT, serves /metrics on its own listener and not on the public port', async () => {
    let api: RunningApi | undefined;
    try {
      api = await startApi(testConfig({ METRICS_PORT: '0' }));
      expect(api.metricsUrl).not.toBe(`${api.url}/metrics`);
      expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
      const own = await fetch(api.metricsUrl);
      expect(own.status).toBe(200);
      expect(await own.text()).toMatch(/^# HELP /m);
      expect((await fetch(api.metricsUrl.replace(/\/metrics$/, '/v1/me'))).status).toBe(404);
    } finally {
      await api?.close();
    }
  });
});
