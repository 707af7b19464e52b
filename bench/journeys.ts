// P3 (quality-figures.md): leads through a 3-step journey (tag → automation POSTing to a local fake vendor → end) on the
// real workers, against a raw Temporal workflow of the same shape (three steps, two activities) on the same server, in
// alternated rounds: completed enrollments per second, start to result, at the same concurrency.
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { importJourney } from '../src/journeys/db/journeys';
import { insertSyntheticLeads } from '../src/leads/db/lead-synthetic';
import { startEnrollment } from '../src/journeys/enroll';
import { parseJourneySteps } from '../src/journeys/schema';
import { createLogger } from '../src/telemetry/log';
import { connectNativeTemporal, connectTemporal } from '../src/temporal/client';
import { enrollmentWorkflowId } from '../src/temporal/ids';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { createWorkers } from '../worker/workers';
import { benchConfig, benchWorkspace, runWorkers } from './in-process';
import { countStatements, describeWork, historyWork, type Work } from './journeys-work';
import { alternate, measure, measurementFigures, report, summarize, type BenchContext, type Figure } from './lib';
import { quietTemporalRuntime } from './temporal-raw';
import type { JourneyRawActivities } from './workflows/journey-raw';

/** Shown by `npm run bench -- --list`. */
export const description = 'P3: leads through a 3-step journey (tag → automation to a local fake → end) vs a raw workflow of the same shape: completions/s';

/** quality-figures.md: at least 0.80 of the raw completion rate. */
export const goal = 0.8;

export const options = {
  leads: 'leads per side, split over the rounds (default 2000)',
  rounds: 'alternated rounds (default 2)',
  concurrency: 'enrollments in flight (default 32)',
};

export async function run(ctx: BenchContext): Promise<number> {
  const leads = ctx.flags.int('leads', 2000);
  const rounds = ctx.flags.int('rounds', 2);
  const concurrency = ctx.flags.int('concurrency', 32);
  const perRound = Math.max(1, Math.floor(leads / rounds));
  quietTemporalRuntime();

  // The vendor: a loopback server that counts the POSTs of each side and answers at once.
  const ledger = { ours: 0, raw: 0 };
  const vendor = http.createServer((req, res) => {
    req.resume().on('end', () => {
      if (req.url === '/ours') ledger.ours++;
      if (req.url === '/raw') ledger.raw++;
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => vendor.listen(0, '127.0.0.1', r));
  ctx.defer(() => new Promise<void>((r) => (vendor.closeAllConnections(), vendor.close(() => r()))));
  const vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;

  const databaseUrl = await ctx.databaseUrl();
  const prefix = `bench-journeys-${randomBytes(3).toString('hex')}`;
  const config = benchConfig(ctx, databaseUrl, prefix, { SSRF_ALLOWLIST: '127.0.0.1/8' });
  const logger = createLogger('warn', 'bench');
  const db = createDb(databaseUrl, { max: 20, logger });
  ctx.defer(() => db.close());
  await migrate(db);
  const ws = await benchWorkspace(db, ctx, 'journeys');
  await insertSyntheticLeads(db, ws.id, perRound * rounds + 1, 17143000000, 'journeys.bench');
  const leadIds = (await db.query<{ id: string }>('SELECT id FROM leads WHERE workspace_id = $1 ORDER BY phone', [ws.id])).map((r) => r.id);
  const steps = parseJourneySteps([
    { id: 'tag', kind: 'tag', tag: 'p3' },
    {
      id: 'sync',
      kind: 'automation',
      automationType: 'proxy',
      action: 'request',
      params: { apiMethod: 'POST', apiURL: `${vendorUrl}/ours`, requestBodyJson: { n: 1 } },
    },
    { id: 'stop', kind: 'end' },
  ]);
  const journey = await importJourney(db, ws.id, { name: 'bench P3', steps });
  const target = { journeyId: journey.id, version: journey.version, steps };

  const { connection, client } = await connectTemporal(config);
  ctx.defer(() => connection.close());
  await ensureSearchAttributes(connection, ctx.temporal.namespace);
  // The raw side is bare Temporal: no payload codec (ours pays for its encryption).
  const rawClient = new Client({ connection, namespace: ctx.temporal.namespace });
  ctx.say(`Bundling the workflows and starting the journeys and automations workers (task queues ${prefix}-*)…`);
  const native = await connectNativeTemporal(config);
  const workers = await createWorkers({
    connection: native,
    db,
    logger,
    config,
    namespace: ctx.temporal.namespace,
    taskQueuePrefix: prefix,
    kinds: ['journeys', 'automations'],
  });
  const rawActivities: JourneyRawActivities = {
    async rawTag(leadId) {
      await db.query(`UPDATE leads SET tags = array_append(tags, 'p3raw'), updated_at = now() WHERE id = $1`, [leadId]);
    },
    async rawPost(url, leadId) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lead: leadId }) });
      if (res.status >= 300) throw new Error(`vendor answered ${res.status}`);
      await res.arrayBuffer();
    },
  };
  const rawQueue = `${prefix}-raw`;
  workers.push(
    await Worker.create({
      connection: native,
      namespace: ctx.temporal.namespace,
      taskQueue: rawQueue,
      workflowsPath: require.resolve('./workflows/journey-raw'),
      activities: rawActivities,
    }),
  );
  runWorkers(ctx, workers, () => native.close());

  const log = createLogger('warn', 'bench');
  const ours = (offset: number) => async (i: number) => {
    const leadId = leadIds[offset + i]!;
    await startEnrollment({ client, taskQueuePrefix: prefix, log }, ws.id, leadId, target);
    await client.workflow.getHandle(enrollmentWorkflowId(journey.id, leadId)).result();
  };
  const raw = (offset: number) => (i: number) =>
    rawClient.workflow.execute('rawJourney', {
      taskQueue: rawQueue,
      workflowId: `${rawQueue}-${offset + i}`,
      args: [leadIds[offset + i]!, `${vendorUrl}/raw`],
    });

  // One lead per side, alone, first: the work each costs (the last lead is kept for this).
  const statements = countStatements(db);
  const workOf = async (side: (i: number) => Promise<unknown>, workflowId: string): Promise<Work> => {
    statements.take();
    await side(0);
    return { ...(await historyWork(client, workflowId)), statements: statements.take() };
  };
  const spare = perRound * rounds;
  const rawWork = await workOf(raw(spare), `${rawQueue}-${spare}`);
  const oursWork = await workOf(ours(spare), enrollmentWorkflowId(journey.id, leadIds[spare]!));
  ctx.say(`one lead, raw: ${describeWork(rawWork)}`);
  ctx.say(`one lead, journey: ${describeWork(oursWork)}`);

  ctx.say(`${rounds} alternated rounds of ${perRound} leads per side at ${concurrency} in flight…`);
  const result = await alternate(
    rounds,
    (r) => measure(perRound, concurrency, raw(r * perRound)),
    (r) => measure(perRound, concurrency, ours(r * perRound)),
    (m) => m.perSecond,
  );
  for (const [i, r] of result.rounds.entries())
    ctx.say(`round ${i + 1}: raw ${r.baseline.perSecond.toFixed(1)}/s, journey ${r.candidate.perSecond.toFixed(1)}/s, ratio ${r.ratio.toFixed(3)}`);

  const completed =
    (await db.one<{ n: string }>(`SELECT count(*) AS n FROM enrollments WHERE journey_id = $1 AND status = 'completed'`, [journey.id]))?.n ?? '0';
  const figures: Figure[] = [
    ...measurementFigures(`raw workflow (tag, POST, end), ${concurrency} in flight (median of rounds)`, summarize(result.rounds.map((r) => r.baseline))),
    ...measurementFigures(`journey (tag → automation → end), ${concurrency} in flight (median of rounds)`, summarize(result.rounds.map((r) => r.candidate))),
    ['work of one lead: raw workflow', describeWork(rawWork)],
    ['work of one lead: journey', describeWork(oursWork)],
    ['journey enrollments completed (Postgres; one more: the counted lead)', Number(completed)],
    ['vendor POSTs: journey side (one more: the counted lead)', ledger.ours],
    ['vendor POSTs: raw side (one more: the counted lead)', ledger.raw],
    ['goal: ratio >= 0.80', result.medianRatio >= goal ? 'met' : 'missed'],
  ];
  return report('journeys', figures, {
    value: result.medianRatio,
    what: `journey / raw completions per second at ${concurrency} in flight, median of ${rounds} rounds`,
  });
}
