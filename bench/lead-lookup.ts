// P1 (quality-figures.md): GET /v1/lead/get by phone through the real app (API-key auth, logging, metrics,
// validation, phone normalisation) against a bare Koa + pg handler running the same indexed query.
// Fairness: both servers run in one child process (the load generator has its own), use pools of the same size,
// run the lookup as a prepared statement (as the api does), and write one pino line per request at the same LOG_LEVEL
// to the same sink (/dev/null); the bare handler skips
// auth, validation, normalisation and metrics, which is the overhead measured. Server CPU per request is printed
// too: on a shared machine it moves much less than throughput does.
import http from 'node:http';
import path from 'node:path';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { createWorkspace } from '../src/workspaces/db/workspaces';
import { alternate, measure, measurementFigures, median, report, summarize, type BenchContext, type Measurement } from './lib';
import { forkServer } from './server-process';

/** Shown by `npm run bench -- --list`. */
export const description = 'P1: GET /v1/lead/get?phone= with API-key auth vs a bare Koa + pg handler, same query, loopback, 10 connections';

/** quality-figures.md: at least 0.90 of the baseline's throughput. */
export const goal = 0.9;

export const options = {
  leads: 'leads to seed (default 1000)',
  requests: 'requests per side per round (default 4000)',
  rounds: 'alternating rounds (default 6)',
  connections: 'concurrent keep-alive connections (default 10)',
  'log-level': 'LOG_LEVEL of both servers, each logging one line per request (default info)',
  profile: 'write a V8 CPU profile of the server process into this directory',
};

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export async function run(ctx: BenchContext): Promise<number> {
  const leads = ctx.flags.int('leads', 1000);
  const requests = ctx.flags.int('requests', 4000);
  const rounds = ctx.flags.int('rounds', 6);
  const connections = ctx.flags.int('connections', 10);
  const logLevel = ctx.flags.str('log-level', 'info');
  const profileDir = ctx.flags.str('profile', '');
  if (!LEVELS.includes(logLevel)) throw new Error(`--log-level must be one of ${LEVELS.join(', ')}`);

  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 2 });
  ctx.defer(() => db.close());
  await migrate(db);
  const ws = await createWorkspace(db, { name: 'bench lead-lookup' });
  ctx.defer(() => db.query('DELETE FROM workspaces WHERE id = $1', [ws.id]).then(() => undefined));
  const { key } = await createApiKey(db, ws.id, { name: 'bench' });
  // Phones 1714555xxxx upwards: valid US numbers, one per lead.
  await db.query(
    `INSERT INTO leads (id, workspace_id, phone, first_name, last_name, email, company, tags)
     SELECT gen_random_uuid(), $1, (17145550000 + g)::text, 'First' || g, 'Last' || g, 'lead' || g || '@example.com', 'Co', ARRAY['bench']
     FROM generate_series(1, $2::int) g`,
    [ws.id, leads],
  );
  await db.query('ANALYZE leads');
  ctx.say(`Seeded ${leads} leads; starting the api and the bare handler in a child process (LOG_LEVEL=${logLevel}).`);

  const { message: ports, cpu } = await forkServer<{ ours: number; bare: number }>(
    ctx,
    path.join(__dirname, 'lead-lookup', 'servers.ts'),
    {
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_TEMPORAL_ADDRESS: ctx.temporal.address,
      BENCH_WORKSPACE_ID: ws.id,
      TEMPORAL_NAMESPACE: ctx.temporal.namespace,
      LOG_LEVEL: logLevel,
    },
    profileDir,
  );

  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  ctx.defer(() => agent.destroy());
  const phone = (i: number) => String(17145550001 + ((i * 7919) % leads));
  const get = (port: number, i: number) =>
    new Promise<string>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, agent, path: `/v1/lead/get?phone=${phone(i)}`, headers: { authorization: `Bearer ${key}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString()) : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
    });

  /** A measurement plus the server process's CPU time per request (µs), which shared-machine noise barely moves. */
  const side = async (port: number): Promise<Measurement & { cpuUs: number }> => {
    const before = await cpu();
    const m = await measure(requests, connections, (i) => get(port, i));
    return { ...m, cpuUs: ((await cpu()) - before) / m.ops };
  };

  for (const port of [ports.ours, ports.bare]) {
    const body = JSON.parse(await get(port, 0)) as { phone?: string };
    if (body.phone !== phone(0)) throw new Error(`port ${port} answered ${JSON.stringify(body)} for ${phone(0)}`);
  }
  ctx.say('Warming up both sides…');
  await measure(Math.min(requests, 2000), connections, (i) => get(ports.bare, i));
  await measure(Math.min(requests, 2000), connections, (i) => get(ports.ours, i));

  ctx.say(`${rounds} alternating rounds of ${requests} requests per side at ${connections} connections…`);
  const result = await alternate(
    rounds,
    () => side(ports.bare),
    () => side(ports.ours),
    (m) => m.perSecond,
  );
  for (const [r, { baseline: b, candidate: c, ratio }] of result.rounds.entries()) {
    ctx.say(
      `round ${r + 1}: bare ${b.perSecond.toFixed(0)}/s p99 ${b.p99.toFixed(2)} ms ${b.cpuUs.toFixed(0)} µs CPU/req; ` +
        `ours ${c.perSecond.toFixed(0)}/s p99 ${c.p99.toFixed(2)} ms ${c.cpuUs.toFixed(0)} µs CPU/req; ratio ${ratio.toFixed(3)}`,
    );
  }
  const ours = summarize(result.rounds.map((r) => r.candidate));
  const bare = summarize(result.rounds.map((r) => r.baseline));
  return report(
    'lead-lookup',
    [
      ['leads seeded', leads],
      ['connections', connections],
      ['LOG_LEVEL (both sides)', logLevel],
      ...measurementFigures('bare Koa + pg (median of rounds)', bare),
      ['bare Koa + pg: server CPU per request', median(result.rounds.map((r) => r.baseline.cpuUs)), 'µs'],
      ...measurementFigures('GET /v1/lead/get (median of rounds)', ours),
      ['GET /v1/lead/get: server CPU per request', median(result.rounds.map((r) => r.candidate.cpuUs)), 'µs'],
      ['goal: ratio >= 0.90, ours p99 <= 10 ms', ours.p99 <= 10 ? 'p99 met' : 'p99 missed'],
    ],
    { value: result.medianRatio, what: 'ours / bare throughput, median of rounds' },
  );
}
