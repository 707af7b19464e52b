import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(60_000);

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
type LeadOut = { lead_id: string; phone: string; updated_at: string } & Record<string, unknown>;

async function create(ws: Ws, body: Record<string, unknown>): Promise<LeadOut> {
  const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body });
  expect(res.status).toBe(200);
  return res.body.lead;
}
const tagLead = async (ws: Ws, lead_id: string, tag: string) =>
  expect((await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id, tag } })).status).toBe(200);
const list = (ws: Ws, query: string) => app.request('GET', `/v1/leads?${query}`, { key: ws.apiKey });
const ids = async (ws: Ws, query: string): Promise<string[]> => {
  const res = await list(ws, query);
  expect(res.status).toBe(200);
  return res.body.leads.map((l: LeadOut) => l.lead_id);
};
const enc = encodeURIComponent;

describe('GET /v1/leads filters', () => {
  let ws: Ws;
  let ada: LeadOut, alan: LeadOut, grace: LeadOut, percent: LeadOut;
  beforeAll(async () => {
    ws = await app.newWorkspace();
    ada = await create(ws, { phone: '+1 (714) 555-1234', first_name: 'Ada', last_name: 'Lovelace', email: 'Ada@Example.com' });
    alan = await create(ws, { phone: '17145551235', first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' });
    grace = await create(ws, { phone: '17145551236', first_name: 'Grace', last_name: 'Hopper' });
    percent = await create(ws, { phone: '17145551237', first_name: '100%', last_name: 'Sure_ly' });
    await tagLead(ws, ada.lead_id, 'vip');
    await tagLead(ws, ada.lead_id, 'math');
    await tagLead(ws, alan.lead_id, 'math');
    await tagLead(ws, grace.lead_id, 'navy');
  });

  it('lists everything newest first, each lead as GET /v1/lead/get shows it', async () => {
    const res = await list(ws, '');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.leads.map((l: LeadOut) => l.lead_id)).toEqual([percent, grace, alan, ada].map((l) => l.lead_id));
    const got = await app.request('GET', `/v1/lead/get?lead_id=${ada.lead_id}`, { key: ws.apiKey });
    expect(res.body.leads[3]).toEqual(got.body);
  });

  it('finds a lead by several phone variants at once, normalised', async () => {
    const variants = ['+1 (714) 555-1234', '714-555-1234', '17145551236'].map((p) => `phone=${enc(p)}`).join('&');
    expect(await ids(ws, variants)).toEqual([grace.lead_id, ada.lead_id]);
    expect(await ids(ws, `phone=${enc('(714) 555-1235')}`)).toEqual([alan.lead_id]);
    expect(await ids(ws, 'phone=17145550000')).toEqual([]);
  });

  it('matches email case-insensitively', async () => {
    expect(await ids(ws, `email=${enc('ada@EXAMPLE.com')}`)).toEqual([ada.lead_id]);
    expect(await ids(ws, `email=${enc('ALAN@example.com')}`)).toEqual([alan.lead_id]);
    expect(await ids(ws, `email=${enc('nobody@example.com')}`)).toEqual([]);
  });

  it('matches tags with tag_match all (default) or any', async () => {
    expect(await ids(ws, 'tag=math')).toEqual([alan.lead_id, ada.lead_id]);
    expect(await ids(ws, 'tag=math&tag=vip')).toEqual([ada.lead_id]);
    expect(await ids(ws, 'tag=math&tag=vip&tag_match=all')).toEqual([ada.lead_id]);
    expect(await ids(ws, 'tag=vip&tag=navy&tag_match=any')).toEqual([grace.lead_id, ada.lead_id]);
    expect(await ids(ws, 'tag=VIP')).toEqual([]);
  });

  it('filters by updated_since', async () => {
    // From the first lead's own stamp, not the machine's clock minus a margin a slow run could outlast.
    const before = new Date(Math.min(...[ada, alan, grace, percent].map((l) => Date.parse(l.updated_at)))).toISOString();
    expect(await ids(ws, `updated_since=${enc(before)}`)).toHaveLength(4);
    const upd = await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: grace.lead_id, company: 'Navy' } });
    const since = upd.body.lead.updated_at as string;
    expect(await ids(ws, `updated_since=${enc(since)}`)).toEqual([grace.lead_id]);
    expect(await ids(ws, `updated_since=${enc(new Date(Date.parse(since) + 1).toISOString())}`)).toEqual([]);
  });

  it('matches a name prefix of "first last" or of the last name, case-insensitively, with % and _ taken literally', async () => {
    expect(await ids(ws, 'q=a')).toEqual([alan.lead_id, ada.lead_id]);
    expect(await ids(ws, `q=${enc('ADA LOVE')}`)).toEqual([ada.lead_id]);
    expect(await ids(ws, 'q=hop')).toEqual([grace.lead_id]);
    expect(await ids(ws, `q=${enc('100%')}`)).toEqual([percent.lead_id]);
    expect(await ids(ws, `q=${enc('1%')}`)).toEqual([]);
    expect(await ids(ws, `q=${enc('sure_')}`)).toEqual([percent.lead_id]);
    expect(await ids(ws, `q=${enc('sur_')}`)).toEqual([]);
  });

  it('combines filters', async () => {
    expect(await ids(ws, 'tag=math&q=al')).toEqual([alan.lead_id]);
    expect(await ids(ws, `tag=math&email=${enc('ada@example.com')}`)).toEqual([ada.lead_id]);
    expect(await ids(ws, 'tag=navy&q=al')).toEqual([]);
  });

  it("never shows another workspace's leads", async () => {
    const other = await app.newWorkspace();
    expect(await ids(other, '')).toEqual([]);
    expect(await ids(other, 'phone=17145551234')).toEqual([]);
    expect(await ids(other, 'tag=math')).toEqual([]);
    // A cursor only positions: used by another workspace it still shows that workspace's leads alone.
    const first = await list(ws, 'limit=1');
    expect(await ids(other, `cursor=${first.body.next_cursor}`)).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit: must be an integer from 1 to 200'],
    ['limit=201', 'limit: must be an integer from 1 to 200'],
    ['limit=abc', 'limit: must be an integer from 1 to 200'],
    ['tag=bad-tag', 'tag.0: letters, digits and underscores only, 1–64 characters'],
    ['tag_match=some', null],
    ['updated_since=yesterday', null],
    ['email=not-an-email', null],
    ['q=', null],
    ['phone=12345', 'phone: not a valid phone number (include the country code, e.g. 17145551234, or use the workspace region format)'],
    ['cursor=garbage', 'cursor: invalid cursor'],
    [`cursor=${Buffer.from('["2020-01-01T00:00:00.000000Z","nope"]').toString('base64url')}`, 'cursor: invalid cursor'],
  ])('answers 400 for %s and lists nothing', async (query, message) => {
    const res = await list(ws, query);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('failed');
    if (message) expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(new RegExp(`^${query.split('=')[0]}`));
  });

  it('answers 401 without a key', async () => {
    expect((await app.request('GET', '/v1/leads')).status).toBe(401);
  });
});

describe('GET /v1/leads pagination', () => {
  it('walks every lead once, newest first, while leads are created and updated concurrently', async () => {
    const ws = await app.newWorkspace();
    const original: string[] = [];
    for (let i = 0; i < 23; i++) original.push((await create(ws, { phone: String(17145552000 + i), first_name: `P${i}` })).lead_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let extra = 0;
    do {
      const res = await list(ws, `limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.leads.map((l: LeadOut) => l.lead_id));
      cursor = res.body.next_cursor;
      pages++;
      // Writes between pages: a new lead, and an update to a lead not yet listed and one already listed.
      await create(ws, { phone: String(17145553000 + extra++) });
      const pending = original.filter((id) => !seen.includes(id));
      for (const id of [pending[0], seen[0]].filter(Boolean)) {
        expect((await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: id, company: `c${pages}` } })).status).toBe(200);
      }
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual([...original].reverse());
  });

  it('keeps leads created in the same instant apart by id', async () => {
    const ws = await app.newWorkspace();
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, created_at) SELECT gen_random_uuid(), $1, (17145554000 + g)::text, '2026-01-01T00:00:00Z'
       FROM generate_series(1, 7) g`,
      [ws.workspaceId],
    );
    const all = await ids(ws, 'limit=200');
    expect(all).toEqual([...all].sort().reverse());
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(ws, `limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...res.body.leads.map((l: LeadOut) => l.lead_id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it('finds matches beyond the newest 2,000 leads, in order, across pages', async () => {
    const ws = await app.newWorkspace();
    // Lead g is created g seconds ago: g = 1 is the newest. Tag old on leads deep in the workspace and on the newest.
    await app.db.query(
      `INSERT INTO leads (id, workspace_id, phone, first_name, last_name, tags, created_at)
       SELECT gen_random_uuid(), $1, (17145560000 + g)::text, 'F' || g, 'L' || g,
         CASE WHEN g IN (1, 2100, 2400, 2401) THEN ARRAY['old'] ELSE ARRAY['new'] END, now() - g * interval '1 second'
       FROM generate_series(1, 2500) g`,
      [ws.workspaceId],
    );
    const first = await list(ws, 'tag=old&limit=3');
    expect(first.body.leads.map((l: { first_name: string }) => l.first_name)).toEqual(['F1', 'F2100', 'F2400']);
    const second = await list(ws, `tag=old&limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.leads.map((l: { first_name: string }) => l.first_name)).toEqual(['F2401']);
    expect(second.body.next_cursor).toBeNull();
    expect((await list(ws, 'q=f240&limit=200')).body.leads.map((l: { first_name: string }) => l.first_name)).toEqual([
      'F240',
      ...Array.from({ length: 10 }, (_, i) => `F240${i}`),
    ]);
    expect((await list(ws, 'tag=new&limit=200')).body.leads).toHaveLength(200);
  });

  it('defaults to 50 leads a page', async () => {
    const ws = await app.newWorkspace();
    await app.db.query(`INSERT INTO leads (id, workspace_id, phone) SELECT gen_random_uuid(), $1, (17145555000 + g)::text FROM generate_series(1, 51) g`, [
      ws.workspaceId,
    ]);
    const first = await list(ws, '');
    expect(first.body.leads).toHaveLength(50);
    const second = await list(ws, `cursor=${first.body.next_cursor}`);
    expect(second.body.leads).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
  });
});
