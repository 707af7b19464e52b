// P7 (quality-figures.md) for GET /v1/leads: each filter's latency in a workspace of 1,000,000 leads against one of
// 1,000, through the real api in a child process. The data is alike in both workspaces (same tags, name and email
// patterns; filters chosen so both answer a full or equally small page), so only the workspace's size differs; a
// filter not served by an index shows as a ratio far above 1.2.
import http from 'node:http';
import path from 'node:path';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { insertSyntheticLeads } from '../src/leads/db/lead-synthetic';
import { createWorkspace } from '../src/workspaces/db/workspaces';
import { alternate, measure, median, report, type BenchContext, type Figure, type Measurement } from './lib';
import { listingWork } from './lead-list/work';
import { forkServer } from './server-process';

/** Shown by `npm run bench -- --list`. */
export const description = 'P7: GET /v1/leads, each filter, latency at 1,000,000 leads vs 1,000 (reported as small/large p50; goal >= 1/1.2)';

/** quality-figures.md: large/small latency ≤ 1.2, i.e. small/large ≥ 0.833 for the worst filter. */
export const goal = 1 / 1.2;

export const options = {
  large: 'leads in the large workspace (default 1000000)',
  small: 'leads in the small workspace (default 1000)',
  requests: 'sequential requests per filter, side and round (default 100)',
  rounds: 'alternating rounds (default 3)',
  keep: 'yes: keep the seeded workspaces after the run and reuse them on the next run with the same sizes (default no)',
};

interface Side {
  id: string;
  key: string;
  count: number;
  /** updated_at of the workspace's 100th newest lead, so updated_since selects 100 leads on either side. */
  since: string;
}

export async function run(ctx: BenchContext): Promise<number> {
  const large = ctx.flags.int('large', 1_000_000);
  const small = ctx.flags.int('small', 1000);
  const requests = ctx.flags.int('requests', 100);
  const rounds = ctx.flags.int('rounds', 3);
  const keepFlag = ctx.flags.str('keep', 'no');
  if (keepFlag !== 'yes' && keepFlag !== 'no') throw new Error(`--keep must be yes or no (got ${keepFlag})`);
  const keep = keepFlag === 'yes';

  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 2 });
  ctx.defer(() => db.close());
  await migrate(db);
  // Workspaces an interrupted run left behind would only slow seeding and skew the statistics; kept ones
  // (--keep yes) are reused when they hold exactly the sizes asked for.
  const kept = keep
    ? await db.query<{ id: string; name: string }>(
        `SELECT w.id, w.name FROM workspaces w WHERE w.name IN ($1, $2)
           AND (SELECT count(*) FROM leads l WHERE l.workspace_id = w.id) = substring(w.name from '[0-9]+$')::bigint`,
        [`bench lead-list kept ${small}`, `bench lead-list kept ${large}`],
      )
    : [];
  // With --keep yes, workspaces kept at other sizes stay; a kept one of these sizes that is incomplete goes.
  await db.query(
    `DELETE FROM workspaces WHERE name LIKE 'bench lead-list %' AND NOT (id = ANY($1::uuid[]))
       AND (NOT $2 OR name NOT LIKE 'bench lead-list kept %' OR name IN ($3, $4))`,
    [kept.map((k) => k.id), keep, `bench lead-list kept ${small}`, `bench lead-list kept ${large}`],
  );
  const seed = async (count: number, firstPhone: number): Promise<Side> => {
    const name = `bench lead-list ${keep ? 'kept ' : ''}${count}`;
    const reused = kept.find((k) => k.name === name);
    const ws = reused ?? (await createWorkspace(db, { name }));
    if (!keep)
      ctx.defer(() =>
        db
          .query('DELETE FROM leads WHERE workspace_id = $1', [ws.id])
          .then(() => db.query('DELETE FROM workspaces WHERE id = $1', [ws.id]))
          .then(() => undefined),
      );
    const { key } = await createApiKey(db, ws.id, { name: 'bench' });
    const started = Date.now();
    if (reused) ctx.say(`Reusing the kept workspace of ${count} leads.`);
    else {
      await insertSyntheticLeads(db, ws.id, count, firstPhone, 'example.com');
      ctx.say(`Seeded ${count} leads in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
    const row = await db.one<{ since: Date }>('SELECT updated_at AS since FROM leads WHERE workspace_id = $1 ORDER BY updated_at DESC OFFSET 99 LIMIT 1', [
      ws.id,
    ]);
    return { id: ws.id, key, count, since: row!.since.toISOString() };
  };
  const sides = { small: await seed(small, 17_148_000_000), large: await seed(large, 17_142_000_000) };
  await db.query('ANALYZE leads, lead_tags');

  const {
    message: { port },
  } = await forkServer<{ port: number }>(ctx, path.join(__dirname, 'enroll', 'server.ts'), {
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_TEMPORAL_ADDRESS: ctx.temporal.address,
    TEMPORAL_NAMESPACE: ctx.temporal.namespace,
    LOG_LEVEL: 'warn',
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  ctx.defer(() => agent.destroy());
  const get = (side: Side, query: string) =>
    new Promise<{ leads: unknown[]; next_cursor: string | null }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, agent, path: `/v1/leads?${query}`, headers: { authorization: `Bearer ${side.key}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode === 200) resolve(JSON.parse(text));
          else reject(new Error(`HTTP ${res.statusCode}: ${text}`));
        });
      });
      req.on('error', reject);
    });

  // The lead in the middle of each workspace (phones and emails are numbered from 1; phones are valid 714 numbers).
  const mid = (s: Side) => Math.floor(s.count / 2);
  const phone = (s: Side) => (s === sides.small ? 17_148_000_000 : 17_142_000_000) + mid(s);
  const filters: [name: string, query: (s: Side) => string | Promise<string>][] = [
    ['no filter, first page', () => 'limit=50'],
    ['no filter, second page (cursor)', async (s) => `limit=50&cursor=${(await get(s, 'limit=50')).next_cursor}`],
    ['phone, three variants', (s) => `phone=${phone(s)}&phone=%2B${phone(s)}&phone=${phone(s) + 1}`],
    ['email (other case)', (s) => `email=LEAD${mid(s)}%40Example.com`],
    ['tag (10% of leads)', () => 'tag=t3'],
    ['tag (10 leads)', () => 'tag=rare'],
    ['tags, all', () => 'tag=t0&tag=rare'],
    ['tags, any', () => 'tag=rare&tag=t3&tag_match=any'],
    ['updated_since (100 leads)', (s) => `updated_since=${encodeURIComponent(s.since)}`],
    ['q, common prefix', () => 'q=first1'],
    ['q, one lead', (s) => `q=first${mid(s)}%20last${mid(s)}`],
    ['q, last name', (s) => `q=last${mid(s)}`],
    // Ten a page: the small workspace has 11 such leads, so both sides answer a full page (in the large one they are old).
    ['tag and q', () => 'tag=t3&q=first1&limit=10'],
  ];

  const figures: Figure[] = [
    ['leads, small workspace', small],
    ['leads, large workspace', large],
  ];
  let worst = Infinity;
  for (const [name, query] of filters) {
    const q = { small: await query(sides.small), large: await query(sides.large) };
    const [a, b] = [await get(sides.small, q.small), await get(sides.large, q.large)];
    if (a.leads.length !== b.leads.length && !name.startsWith('phone')) ctx.say(`note: ${name}: ${a.leads.length} vs ${b.leads.length} leads`);
    await measure(20, 1, () => get(sides.large, q.large));
    const side = (s: Side, query: string): Promise<Measurement> => measure(requests, 1, () => get(s, query));
    const result = await alternate(
      rounds,
      () => side(sides.small, q.small),
      () => side(sides.large, q.large),
      (m) => 1 / m.p50,
    );
    const p50 = (pick: 'baseline' | 'candidate') => median(result.rounds.map((r) => r[pick].p50));
    const errors = result.rounds.reduce((n, r) => n + r.baseline.errors + r.candidate.errors, 0);
    if (errors) throw new Error(`${name}: ${errors} failed requests`);
    ctx.say(
      `${name}: p50 ${p50('baseline').toFixed(2)} ms at ${small}, ${p50('candidate').toFixed(2)} ms at ${large}; ratio ${(1 / result.medianRatio).toFixed(3)}`,
    );
    figures.push([`${name}: p50 at ${small} / at ${large}`, `${p50('baseline').toFixed(2)} / ${p50('candidate').toFixed(2)}`, 'ms']);
    figures.push([`${name}: latency large / small (median of rounds)`, 1 / result.medianRatio]);
    // Load-independent: the queries and buffers of one listing (the second of two, caches warm) on either side.
    const work = async (s: Side, query: string) => (await listingWork(db, s.id, query), listingWork(db, s.id, query));
    const [ws, wl] = [await work(sides.small, q.small), await work(sides.large, q.large)];
    ctx.say(`  ${name}: ${ws.queries} / ${wl.queries} queries, ${ws.buffers} / ${wl.buffers} buffers (at ${small} / at ${large})`);
    figures.push([`${name}: queries, buffers at ${small} / at ${large}`, `${ws.queries}, ${ws.buffers} / ${wl.queries}, ${wl.buffers}`]);
    worst = Math.min(worst, result.medianRatio);
  }
  figures.push(['goal: large / small latency <= 1.2 for every filter', worst >= goal ? 'met' : 'missed']);
  return report('lead-list', figures, { value: worst, what: 'small / large p50 latency of the worst filter' });
}
