// P8 (quality-figures.md): enrolled leads sleeping in a journey's `wait` step. The real worker process (journeys queue
// only) is measured at 1%, 10% and 100% of --leads sleeping: its rss must stay flat (ratio = rss at 10% / rss at 100%),
// and the storage each sleeping lead costs is reported: Postgres (lead and enrollment rows) and Temporal (the dev
// server's SQLite file, on a server of this run's own).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/core/config';
import { freePort } from '../src/devstack/net';
import { migrate } from '../src/db/migrate';
import { createDb, type Db } from '../src/db/pool';
import { importJourney } from '../src/journeys/db/journeys';
import { insertSyntheticLeads } from '../src/leads/db/lead-synthetic';
import { createWorkspace } from '../src/workspaces/db/workspaces';
import { resolveTemporalCli } from '../src/devstack/temporal-cli';
import { startTemporalDevServer } from '../src/devstack/temporal-server';
import { startEnrollment } from '../src/journeys/enroll';
import { parseJourneySteps } from '../src/journeys/schema';
import { createLogger } from '../src/telemetry/log';
import { connectTemporal } from '../src/temporal/client';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { measure, report, type BenchContext, type Figure } from './lib';
import { forkServer } from './server-process';

/** Shown by `npm run bench -- --list`. */
export const description = 'P8: enrolled leads sleeping in a wait step: worker rss at 1%, 10%, 100% of --leads (flat?), storage per sleeping lead';

/** quality-figures.md: rss at 10k / rss at 100k at least 0.80. */
export const goal = 0.8;

export const options = {
  leads: 'leads enrolled and left sleeping (default 100000; the rss checkpoints are 1%, 10% and 100% of it)',
  concurrency: 'enrollments in flight (default 64)',
  'max-cached': "the worker's WORKER_JOURNEYS_MAX_CACHED_WORKFLOWS (default: the SDK's, which follows the heap size)",
};

const STEPS = parseJourneySteps([
  { id: 'sleep', kind: 'wait', duration: 'P30D' },
  { id: 'stop', kind: 'end' },
]);
const MiB = 1024 * 1024;

export async function run(ctx: BenchContext): Promise<number> {
  const leads = ctx.flags.int('leads', 100_000);
  const concurrency = ctx.flags.int('concurrency', 64);
  const maxCached = ctx.flags.str('max-cached', '');
  const checkpoints = [...new Set([Math.max(1, Math.round(leads / 100)), Math.max(1, Math.round(leads / 10)), leads])];

  // A dev server of this run's own: its SQLite file is what Temporal stores for the sleeping runs.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-sleeping-'));
  ctx.defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startTemporalDevServer({
    cli: await resolveTemporalCli({ say: ctx.say }),
    host: '127.0.0.1',
    port: await freePort(),
    uiPort: 0,
    namespace: 'default',
    dataDir,
    headless: true,
  });
  ctx.defer(() => server.stop());
  const temporalBytes = () => ['temporal.db', 'temporal.db-wal'].reduce((n, f) => n + fileSize(path.join(dataDir, f)), 0);

  const databaseUrl = await ctx.databaseUrl();
  const prefix = `bench-sleeping-${randomBytes(3).toString('hex')}`;
  // The payload key of this process's client and of the worker process: the same, or the worker cannot read the input.
  const ENCRYPTION_KEY = randomBytes(32).toString('base64');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ENCRYPTION_KEY,
  });
  const db = createDb(databaseUrl, { max: 10 });
  ctx.defer(() => db.close());
  await migrate(db);
  const { connection, client } = await connectTemporal(config);
  ctx.defer(() => connection.close());
  await ensureSearchAttributes(connection, 'default');

  const ws = await createWorkspace(db, { name: 'bench sleeping' });
  ctx.defer(() => db.query('DELETE FROM workspaces WHERE id = $1', [ws.id]).then(() => undefined));
  const pgBefore = await databaseBytes(db);
  const temporalBefore = temporalBytes();
  ctx.say(`Inserting ${leads} leads…`);
  await insertSyntheticLeads(db, ws.id, leads, 17144000000, 'sleeping.bench');
  const leadIds = (await db.query<{ id: string }>('SELECT id FROM leads WHERE workspace_id = $1 ORDER BY phone', [ws.id])).map((r) => r.id);
  const journey = await importJourney(db, ws.id, { name: 'bench P8', steps: STEPS });
  const target = { journeyId: journey.id, version: journey.version, steps: STEPS };

  ctx.say('Starting the worker process (journeys queue only)…');
  const worker = await forkServer<{ ready: boolean }>(ctx, path.join(__dirname, 'sleeping', 'worker.ts'), {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE_PREFIX: prefix,
    TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'false',
    ENCRYPTION_KEY,
    WORKER_TASK_QUEUES: 'journeys',
    WORKER_HEALTH_PORT: '0',
    WORKER_METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    ...(maxCached ? { WORKER_JOURNEYS_MAX_CACHED_WORKFLOWS: maxCached } : {}),
  });
  const rssAtStart = (await worker.memory()).rss;

  const log = createLogger('warn', 'bench');
  const figures: Figure[] = [
    ['worker sticky cache (WORKER_JOURNEYS_MAX_CACHED_WORKFLOWS)', maxCached || "SDK's default"],
    ['worker rss with nothing enrolled', rssAtStart / MiB, 'MiB'],
  ];
  const rss = new Map<number, number>();
  let enrolled = 0;
  for (const checkpoint of checkpoints) {
    const from = enrolled;
    ctx.say(`Enrolling leads ${from + 1}–${checkpoint} at ${concurrency} in flight…`);
    const m = await measure(checkpoint - from, concurrency, (i) =>
      startEnrollment({ client, taskQueuePrefix: prefix, log }, ws.id, leadIds[from + i]!, target),
    );
    if (m.errors) throw new Error(`${m.errors} enrollments failed: ${m.firstError}`);
    enrolled = checkpoint;
    await untilSleeping(ctx, db, journey.id, checkpoint);
    rss.set(checkpoint, (await worker.memory()).rss);
    figures.push(
      [`enrollments started per second, leads ${from + 1}–${checkpoint}`, m.perSecond, '/s'],
      [`worker rss with ${checkpoint} leads sleeping`, rss.get(checkpoint)! / MiB, 'MiB'],
    );
  }

  const pgPerLead = (await databaseBytes(db)) - pgBefore;
  const temporalPerLead = temporalBytes() - temporalBefore;
  const [, tenth = leads, all = leads] = checkpoints;
  const ratio = rss.get(tenth)! / rss.get(all)!;
  figures.push(
    ['Postgres per sleeping lead (database growth: lead, enrollment, indexes)', pgPerLead / leads, 'bytes'],
    ['Temporal per sleeping lead (dev server SQLite file and WAL growth)', temporalPerLead / leads, 'bytes'],
    ['goal: rss at 10% / rss at 100% >= 0.80', ratio >= goal ? 'met' : 'missed'],
  );
  return report('sleeping', figures, { value: ratio, what: `worker rss with ${tenth} sleeping / with ${all} sleeping` });
}

/** Until `n` enrollments of the journey are recorded at the wait step (the run's timer is set right after). */
async function untilSleeping(ctx: BenchContext, db: Db, journeyId: string, n: number): Promise<void> {
  let last = -1;
  for (;;) {
    const row = await db.one<{ n: string }>(`SELECT count(*) AS n FROM enrollments WHERE journey_id = $1 AND status = 'active' AND current_step = 'sleep'`, [
      journeyId,
    ]);
    const sleeping = Number(row?.n ?? 0);
    if (sleeping >= n) return;
    if (sleeping !== last) ctx.say(`  ${sleeping}/${n} sleeping…`);
    last = sleeping;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

const databaseBytes = async (db: Db) => Number((await db.one<{ n: string }>('SELECT pg_database_size(current_database()) AS n'))?.n ?? 0);

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
