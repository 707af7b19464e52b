// Text Postgres cannot store as sent (a NUL, an unpaired UTF-16 surrogate) in any field of any route's request is a 400
// before anything starts: the one rule in src/http/validation.ts, for bodies, query strings and path parameters.
import { callingWorkspace } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(120_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const NUL = 'must not contain NUL characters or unpaired surrogates';
const SURROGATE = NUL;

describe('text Postgres cannot store', () => {
  it('a campaign named with a NUL is a 400 before its run starts: no campaign, no run', async () => {
    const ws = await callingWorkspace(app);
    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'Spring\u0000', agent: ws.agentId, audience: { tag: 'spring' } },
    });
    expect([res.status, res.body]).toEqual([400, { status: 'failed', message: `name: ${NUL}` }]);
    expect((await app.db.query('SELECT count(*)::int AS n FROM campaigns WHERE workspace_id = $1', [ws.workspaceId]))[0]!.n).toBe(0);
    const runs = await app.temporal.client.workflow.count(`WorkspaceId = '${ws.workspaceId}'`);
    expect(runs.count).toBe(0);
    // The same request without the NUL is taken (the rule refuses the NUL, not the request).
    const ok = await app.request('POST', '/v1/campaigns', { key: ws.apiKey, body: { name: 'Spring', agent: ws.agentId, audience: { tag: 'spring' } } });
    expect(ok.status).toBe(200);
  });

  it('every route: body fields and keys, nested values, query strings, path parameters, the automation envelope', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    const cases: { method: string; path: string; body?: unknown; key?: string; headers?: Record<string, string>; message: string }[] = [
      { method: 'POST', path: '/v1/lead/create', body: { phone: '14155550100', first_name: 'Ann\u0000' }, message: `first_name: ${NUL}` },
      { method: 'POST', path: '/v1/lead/create', body: { phone: '14155550100', first_name: 'Ann\ud800' }, message: `first_name: ${SURROGATE}` },
      { method: 'POST', path: '/v1/lead/create', body: { phone: '14155550100', custom: { 'a\u0000': 1 } }, message: `custom.(a key): ${NUL}` },
      { method: 'POST', path: '/v1/lead/create', body: { phone: '14155550100', tags: ['ok', 'b\udc00a'] }, message: `tags.1: ${SURROGATE}` },
      // A field with a shape of its own is refused by its schema first, still before anything runs.
      { method: 'GET', path: '/v1/campaigns?cursor=%00', message: 'cursor: invalid cursor' },
      { method: 'GET', path: '/v1/campaigns/%00', message: `id: ${NUL}` },
    ];
    for (const c of cases) {
      const res = await app.request(c.method, c.path, { key: ws.apiKey, body: c.body });
      expect([c.path, res.status, res.body]).toEqual([c.path, 400, { status: 'failed', message: c.message }]);
    }
    expect((await app.db.query('SELECT count(*)::int AS n FROM leads WHERE workspace_id = $1', [ws.workspaceId]))[0]!.n).toBe(0);
    const automation = await app.request('POST', '/api/automation/execute', {
      body: { automationType: 'proxy', nodeParams: { params: { apiURL: 'http://127.0.0.1:1/\u0000' } } },
      headers: { 'x-key': ws.superuserKey },
    });
    expect(automation.status).toBe(400);
    expect(JSON.stringify(automation.body)).toContain(`nodeParams.params.apiURL: ${NUL}`);
  });
});
