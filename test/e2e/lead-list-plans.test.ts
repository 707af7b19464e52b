// GET /v1/leads through each of its query shapes (src/leads/db/lead-search.ts): a rare filter served from its own
// index and sorted, tags walked through lead_tags, q and updated_since walked over the created_at index a chunk at a
// time; every page checked against the same listing computed here from the workspace's rows. Also: lead_tags
// (migration 015) holds exactly the leads' tags after every kind of write.
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(180_000);

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
interface Row {
  id: string;
  first_name: string | null;
  last_name: string | null;
  tags: string[];
  position: string;
  updated_at: Date;
}

const enc = encodeURIComponent;

/** Every page of a listing, following next_cursor; the ids in order. */
async function walk(ws: Ws, query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await app.request('GET', `/v1/leads?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.leads.length).toBeLessThanOrEqual(limit);
    seen.push(...res.body.leads.map((l: { lead_id: string }) => l.lead_id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return seen;
}

const rowsOf = (ws: Ws) =>
  app.db.query<Row>(
    `SELECT id, first_name, last_name, tags, updated_at,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
     FROM leads WHERE workspace_id = $1`,
    [ws.workspaceId],
  );

/** The listing as the spec describes it: the rows matching every filter, newest first, ties by id (descending). */
function expected(rows: Row[], f: { tags?: string[]; any?: boolean; q?: string; since?: Date }): string[] {
  const q = f.q?.toLowerCase();
  return rows
    .filter((r) => !f.tags || (f.any ? f.tags.some((t) => r.tags.includes(t)) : f.tags.every((t) => r.tags.includes(t))))
    .filter(
      (r) => q === undefined || `${r.first_name ?? ''} ${r.last_name ?? ''}`.toLowerCase().startsWith(q) || (r.last_name ?? '').toLowerCase().startsWith(q),
    )
    .filter((r) => !f.since || r.updated_at >= f.since)
    .sort((a, b) => (a.position === b.position ? (a.id < b.id ? 1 : -1) : a.position < b.position ? 1 : -1))
    .map((r) => r.id);
}

describe('GET /v1/leads query shapes', () => {
  let ws: Ws;
  let rows: Row[];
  const base = '2026-03-01T12:00:00Z';
  beforeAll(async () => {
    ws = await app.newWorkspace();
    // Two leads per second (ties broken by id); tags a on half, b on a third, c on four; some updated a day later.
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, first_name, last_name, tags, created_at, updated_at)
       SELECT gen_random_uuid(), $1, (17145570000 + g)::text, 'F' || g,
         CASE g % 3 WHEN 0 THEN 'Smith' WHEN 1 THEN 'Smythe' ELSE 'Jones' || g END,
         array_remove(ARRAY[CASE WHEN g % 2 = 0 THEN 'a' END, CASE WHEN g % 3 = 0 THEN 'b' END, CASE WHEN g % 17 = 0 THEN 'c' END], NULL),
         $2::timestamptz - (g / 2) * interval '1 second',
         $2::timestamptz - (g / 2) * interval '1 second' + CASE WHEN g % 4 = 0 THEN interval '1 day' ELSE interval '0' END
       FROM generate_series(1, 80) g`,
      [ws.workspaceId, base],
    );
    rows = await rowsOf(ws);
  });

  const late = new Date(Date.parse(base) - 20_000);
  const day = new Date(Date.parse(base) + 3_600_000);
  const cases: [query: string, filter: Parameters<typeof expected>[1]][] = [
    ['tag=a', { tags: ['a'] }],
    ['tag=c', { tags: ['c'] }],
    ['tag=zz', { tags: ['zz'] }],
    ['tag=a&tag=b', { tags: ['a', 'b'] }],
    ['tag=b&tag=a&tag_match=all', { tags: ['b', 'a'] }],
    ['tag=a&tag=c', { tags: ['a', 'c'] }],
    ['tag=a&tag=b&tag_match=any', { tags: ['a', 'b'], any: true }],
    ['tag=c&tag=b&tag=b&tag_match=any', { tags: ['c', 'b'], any: true }],
    ['q=sm', { q: 'sm' }],
    ['q=smy', { q: 'smy' }],
    ['q=f', { q: 'f' }],
    ['q=f1', { q: 'f1' }],
    ['q=jones1', { q: 'jones1' }],
    [`q=${enc('f3 j')}`, { q: 'f3 j' }],
    [`updated_since=${late.toISOString()}`, { since: late }],
    [`updated_since=${day.toISOString()}`, { since: day }],
    ['tag=a&q=sm', { tags: ['a'], q: 'sm' }],
    ['tag=a&tag=b&tag_match=any&q=smy', { tags: ['a', 'b'], any: true, q: 'smy' }],
    [`tag=b&updated_since=${day.toISOString()}`, { tags: ['b'], since: day }],
    [`q=sm&updated_since=${late.toISOString()}`, { q: 'sm', since: late }],
  ];
  it.each(cases)('%s: every page as expected, at 3, 11 and 200 a page', async (query, filter) => {
    const want = expected(rows, filter);
    for (const limit of [3, 11, 200]) expect(await walk(ws, query, limit)).toEqual(want);
  });
});

describe('GET /v1/leads walks past the newest leads', () => {
  it('finds common matches that are all older than the first chunks, in order', async () => {
    const ws = await app.newWorkspace();
    // g = 1 is the newest; the 1,000 oldest of 2,500 are named Old, tagged deep and updated recently, and so is lead
    // 1001, the first of the second chunk of a walk over created_at.
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, first_name, last_name, tags, created_at, updated_at)
       SELECT gen_random_uuid(), $1, (17145580000 + g)::text, 'F' || g, CASE WHEN g > 1500 THEN 'Old' ELSE 'New' END,
         CASE WHEN g > 1500 THEN ARRAY['deep'] ELSE ARRAY['top'] END, now() - g * interval '1 minute',
         CASE WHEN g > 1500 OR g = 1001 THEN now() ELSE now() - g * interval '1 minute' END
       FROM generate_series(1, 2500) g`,
      [ws.workspaceId],
    );
    const rows = await rowsOf(ws);
    const since = new Date(Date.now() - 30_000);
    const cases: [string, Parameters<typeof expected>[1]][] = [
      ['q=old', { q: 'old' }],
      ['tag=deep', { tags: ['deep'] }],
      [`updated_since=${since.toISOString()}`, { since }],
      ['tag=deep&tag=top&tag_match=any&q=o', { tags: ['deep', 'top'], any: true, q: 'o' }],
      [`q=f2&updated_since=${since.toISOString()}`, { q: 'f2', since }],
    ];
    for (const [query, filter] of cases) {
      const want = expected(rows, filter);
      expect(want.length).toBeGreaterThan(100);
      const first = await app.request('GET', `/v1/leads?${query}&limit=5`, { key: ws.apiKey });
      expect(first.body.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual(want.slice(0, 5));
      expect(await walk(ws, query, 200)).toEqual(want);
    }
  });

  it('sorts leads updated lately but created long ago instead of walking to them', async () => {
    const ws = await app.newWorkspace();
    // The 800 oldest of 3,000 leads were updated just now, the rest when created (g minutes ago).
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, first_name, created_at, updated_at)
       SELECT gen_random_uuid(), $1, (17145610000 + g)::text, 'F' || g, now() - g * interval '1 minute',
         CASE WHEN g > 2200 THEN now() ELSE now() - g * interval '1 minute' END
       FROM generate_series(1, 3000) g`,
      [ws.workspaceId],
    );
    const since = new Date(Date.now() - 30_000);
    const want = expected(await rowsOf(ws), { since });
    expect(want).toHaveLength(800);
    for (const limit of [5, 150]) {
      const first = await app.request('GET', `/v1/leads?updated_since=${since.toISOString()}&limit=${limit}`, { key: ws.apiKey });
      expect(first.body.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual(want.slice(0, limit));
    }
    expect(await walk(ws, `updated_since=${since.toISOString()}`, 150)).toEqual(want);
  });

  it('pages a tag walk exactly while leads are created, tagged and updated between pages', async () => {
    const ws = await app.newWorkspace();
    const create = async (phone: string) =>
      (await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone, first_name: 'W' } })).body.lead.lead_id as string;
    const tag = (lead_id: string, t: string) => app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id, tag: t } });
    const original: string[] = [];
    for (let i = 0; i < 30; i++) {
      const id = await create(String(17145590000 + i));
      await tag(id, 'w');
      original.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let extra = 0;
    do {
      const res = await app.request('GET', `/v1/leads?tag=w&limit=4${cursor ? `&cursor=${cursor}` : ''}`, { key: ws.apiKey });
      seen.push(...res.body.leads.map((l: { lead_id: string }) => l.lead_id));
      cursor = res.body.next_cursor;
      // A new tagged lead (newer than the cursor: not listed), another tag and an update on a lead not yet listed.
      await tag(await create(String(17145591000 + extra++)), 'w');
      const pending = original.find((id) => !seen.includes(id));
      if (pending) {
        await tag(pending, `x${extra}`);
        await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: pending, company: `c${extra}` } });
      }
    } while (cursor);
    expect(seen).toEqual([...original].reverse());
  });
});

describe('lead_tags follows leads.tags', () => {
  const mirror = (ws: Ws) =>
    app.db.query<{ lead_id: string; tag: string }>(
      'SELECT lead_id, tag FROM lead_tags WHERE workspace_id = $1 AND created_at = (SELECT created_at FROM leads WHERE id = lead_id) ORDER BY 1, 2',
      [ws.workspaceId],
    );
  const truth = (ws: Ws) =>
    app.db.query<{ lead_id: string; tag: string }>('SELECT DISTINCT id AS lead_id, t AS tag FROM leads, unnest(tags) t WHERE workspace_id = $1 ORDER BY 1, 2', [
      ws.workspaceId,
    ]);
  const inSync = async (ws: Ws) => {
    const want = await truth(ws);
    expect(await mirror(ws)).toEqual(want);
    const all = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_tags WHERE workspace_id = $1', [ws.workspaceId]);
    expect(all[0]!.n).toBe(want.length);
    return want;
  };

  it('after tag add and remove, updates, upserts, bulk inserts and deletes', async () => {
    const ws = await app.newWorkspace();
    const key = { key: ws.apiKey };
    const lead = (await app.request('POST', '/v1/lead/create', { ...key, body: { phone: '17145600001', first_name: 'T' } })).body.lead.lead_id;
    expect(await inSync(ws)).toEqual([]);
    await app.request('PATCH', '/v1/lead/tag', { ...key, body: { lead_id: lead, tag: 'one' } });
    await app.request('PATCH', '/v1/lead/tag', { ...key, body: { lead_id: lead, tag: 'two' } });
    await app.request('PATCH', '/v1/lead/tag', { ...key, body: { lead_id: lead, tag: 'one' } });
    expect(await inSync(ws)).toEqual([
      { lead_id: lead, tag: 'one' },
      { lead_id: lead, tag: 'two' },
    ]);
    expect((await app.request('DELETE', `/v1/lead/tag?lead_id=${lead}&tag=one`, key)).status).toBe(200);
    expect(await inSync(ws)).toEqual([{ lead_id: lead, tag: 'two' }]);
    const listed = async (tag: string) => (await app.request('GET', `/v1/leads?tag=${tag}`, key)).body.leads.map((l: { lead_id: string }) => l.lead_id);
    expect(await listed('one')).toEqual([]);
    expect(await listed('two')).toEqual([lead]);
    await app.request('PATCH', '/v1/lead/update', { ...key, body: { lead_id: lead, company: 'Acme', phone: '17145600002' } });
    await inSync(ws);

    // Writes outside today's repositories go through the same triggers: bulk insert (with a repeated tag), upsert
    // (inserting and updating), a direct update, and deletes.
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, tags) SELECT gen_random_uuid(), $1, (17145600100 + g)::text, ARRAY['bulk', 'bulk', 'b' || g]
       FROM generate_series(1, 5) g`,
      [ws.workspaceId],
    );
    expect(await inSync(ws)).toHaveLength(2 + 5 * 2 - 1);
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, tags) VALUES (gen_random_uuid(), $1, '17145600101', ARRAY['up']), (gen_random_uuid(), $1, '17145600200', ARRAY['new'])
       ON CONFLICT (workspace_id, phone) DO UPDATE SET tags = leads.tags || EXCLUDED.tags`,
      [ws.workspaceId],
    );
    await inSync(ws);
    await app.db.query("UPDATE leads SET tags = ARRAY['x', 'x'] WHERE workspace_id = $1 AND phone = '17145600102'", [ws.workspaceId]);
    await app.db.query("UPDATE leads SET tags = '{}' WHERE workspace_id = $1 AND phone = '17145600103'", [ws.workspaceId]);
    await app.db.query("UPDATE leads SET created_at = created_at - interval '1 day' WHERE workspace_id = $1 AND phone = '17145600104'", [ws.workspaceId]);
    await inSync(ws);
    await app.db.query("DELETE FROM leads WHERE workspace_id = $1 AND phone = '17145600105'", [ws.workspaceId]);
    await inSync(ws);
    await app.db.query('DELETE FROM workspaces WHERE id = $1', [ws.workspaceId]);
    const left = await app.db.query('SELECT 1 FROM lead_tags WHERE workspace_id = $1', [ws.workspaceId]);
    expect(left).toEqual([]);
  });
});
