import { randomUUID } from 'node:crypto';
import { createAgent } from '../../src/agents/db/agents';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(120_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Listed = { call_id: string; status: string; legs: { call_id: string; is_transfer?: boolean }[] };

/** A call row as the call workflow writes it; created at a fixed time so the order is known. */
async function call(workspaceId: string, o: { createdAt: string; status?: string; agentId?: string; leadId?: string; legs?: number }): Promise<string> {
  const id = randomUUID();
  await app.db.query(
    `INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, status, created_at)
     VALUES ($1, $2, $3, $4, '17145550001', '17145559999', $5, $6)`,
    [id, workspaceId, o.agentId ?? null, o.leadId ?? null, o.status ?? 'completed', o.createdAt],
  );
  for (let leg = 1; leg <= (o.legs ?? 0); leg++) {
    await app.db.query(
      `INSERT INTO calls (id, workspace_id, parent_id, leg, phone_to, phone_from, status, created_at)
       VALUES ($1, $2, $3, $4, '17145551111', '17145550001', 'completed', $5)`,
      [`${id}:${leg}`, workspaceId, id, leg, o.createdAt],
    );
  }
  return id;
}

const list = async (key: string, query = '') => {
  const res = await app.request('GET', `/v1/calls${query ? `?${query}` : ''}`, { key });
  expect([query, res.status]).toEqual([query, 200]);
  return res.body as { calls: Listed[]; next_cursor: string | null };
};

/** Every page, following next_cursor. */
async function allPages(key: string, query: string): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: { calls: Listed[]; next_cursor: string | null } = await list(key, `${query}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(page.calls.map((c) => c.call_id));
    cursor = page.next_cursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe('GET /v1/calls', () => {
  it('lists parents newest first with their legs, page by page, calls created in the same microsecond included', async () => {
    const t = await app.newWorkspace();
    const same = '2026-03-01T10:00:00.123456Z';
    const ids = [
      await call(t.workspaceId, { createdAt: '2026-03-01T09:00:00Z' }),
      await call(t.workspaceId, { createdAt: same, legs: 2 }),
      await call(t.workspaceId, { createdAt: same }),
      await call(t.workspaceId, { createdAt: same }),
      await call(t.workspaceId, { createdAt: '2026-03-01T11:00:00Z' }),
    ];
    const newestFirst = [ids[4]!, ...[ids[1]!, ids[2]!, ids[3]!].sort().reverse(), ids[0]!];

    const first = await list(t.apiKey);
    expect(first.calls.map((c) => c.call_id)).toEqual(newestFirst);
    expect(first.next_cursor).toBeNull();
    const transferred = first.calls.find((c) => c.call_id === ids[1])!;
    expect(transferred.legs.map((l) => [l.call_id, l.is_transfer])).toEqual([
      [`${ids[1]}:1`, true],
      [`${ids[1]}:2`, true],
    ]);
    expect(first.calls.find((c) => c.call_id === ids[0])!.legs).toEqual([]);

    const pages = await allPages(t.apiKey, 'limit=2');
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
  });

  it('filters by status, agent, lead and since, and shows nothing of another workspace', async () => {
    const t = await app.newWorkspace();
    const other = await app.newWorkspace();
    const agent = await createAgent(app.db, t.workspaceId, { name: 'Ava' });
    const lead = (await app.request('POST', '/v1/lead/create', { key: t.apiKey, body: { phone: '17145550123' } })).body.lead_id as string;
    const a = await call(t.workspaceId, { createdAt: '2026-04-01T08:00:00Z', status: 'no_answer', agentId: agent.id });
    const b = await call(t.workspaceId, { createdAt: '2026-04-02T08:00:00Z', status: 'completed', agentId: agent.id, leadId: lead });
    const c = await call(t.workspaceId, { createdAt: '2026-04-03T08:00:00Z', status: 'no_answer' });
    const ids = async (q: string) => (await list(t.apiKey, q)).calls.map((x) => x.call_id);

    expect(await ids('status=no_answer')).toEqual([c, a]);
    expect(await ids(`agent_id=${agent.id}`)).toEqual([b, a]);
    expect(await ids(`lead_id=${lead}`)).toEqual([b]);
    expect(await ids('since=2026-04-02T08:00:00Z')).toEqual([c, b]);
    expect(await ids(`since=2026-04-02T10:00:00%2B02:00&agent_id=${agent.id}&status=completed`)).toEqual([b]);
    expect((await list(other.apiKey)).calls).toEqual([]);
    expect((await list(other.apiKey, `agent_id=${agent.id}`)).calls).toEqual([]);
    // Another workspace's cursor position reveals nothing either: it pages within the caller's calls only.
    const cursor = (await list(t.apiKey, 'limit=1')).next_cursor!;
    expect((await list(other.apiKey, `cursor=${cursor}`)).calls).toEqual([]);
  });

  it('answers bad parameters with 400 in the error shape', async () => {
    const t = await app.newWorkspace();
    const bad = [
      'limit=0',
      'limit=201',
      'limit=ten',
      'limit=-1',
      'status=ringing_off',
      'agent_id=nope',
      'lead_id=1',
      'since=yesterday',
      'since=2026-04-01T08:00:00',
      'cursor=abc',
      'cursor=',
      'color=red',
      'limit=1&limit=2',
    ];
    for (const q of bad) {
      const res = await app.request('GET', `/v1/calls?${q}`, { key: t.apiKey });
      expect([q, res.status, res.body.status, typeof res.body.message]).toEqual([q, 400, 'failed', 'string']);
    }
    expect((await app.request('GET', '/v1/calls', {})).status).toBe(401);
  });

  it('is served by the calls_list indexes', async () => {
    const t = await app.newWorkspace();
    // Enough calls (each with a leg) that the planner's choice is clear-cut, with fresh statistics.
    await app.db.query(
      `INSERT INTO calls (id, workspace_id, phone_to, phone_from, status, created_at)
       SELECT gen_random_uuid()::text, $1, '17145550001', '17145559999', 'completed', now() - g * interval '1 second'
       FROM generate_series(1, 3000) g`,
      [t.workspaceId],
    );
    await app.db.query(
      `INSERT INTO calls (id, workspace_id, parent_id, leg, phone_to, phone_from, status, created_at)
       SELECT id || ':1', workspace_id, id, 1, '17145551111', phone_to, 'completed', created_at FROM calls WHERE workspace_id = $1`,
      [t.workspaceId],
    );
    await app.db.query('ANALYZE calls');
    const explain = async (extra: string) =>
      (
        await app.db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT to_jsonb(c) FROM calls c WHERE c.workspace_id = $1 AND c.parent_id IS NULL ${extra} ORDER BY c.created_at DESC, c.id DESC LIMIT 51`,
          [t.workspaceId],
        )
      )
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    const plans = {
      all: await explain(''),
      agent: await explain(`AND c.agent_id = '${randomUUID()}'`),
      lead: await explain(`AND c.lead_id = '${randomUUID()}'`),
    };
    expect(plans.all).toMatch(/Index Scan using calls_list on calls/);
    expect(plans.agent).toMatch(/Index Scan using calls_list_agent on calls/);
    expect(plans.lead).toMatch(/Index Scan using calls_list_lead on calls/);
    expect(plans.all).not.toMatch(/Sort/);
  });
});
