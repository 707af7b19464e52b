// P10: campaigns through the carrier simulator (api, workers and simulator in this process): the dial rate a paced
// campaign achieves against its calls_per_minute; at full speed, calls started per second against a bare client
// keeping the same number of outboundCall runs in flight, measured before the campaigns and again after them (the dev
// server's store grows with every run: a rate that falls with the campaign's size shows on the bare client too when the
// server is the cause); per phase, the work one call costs (history events, CPU per process), which machine load does
// not change; rss after a small and a large campaign; the longest campaign history.
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCampaign } from '../src/campaigns/service';
import { migrate } from '../src/db/migrate';
import { createDb, type Db } from '../src/db/pool';
import { createAgent, createPhoneGroup } from '../src/agents/db/agents';
import { createLogger } from '../src/telemetry/log';
import { connectTemporal } from '../src/temporal/client';
import { callWorkflowId, campaignWorkflowId } from '../src/temporal/ids';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { taskQueue } from '../src/temporal/task-queues';
import { startWorkflow, WORKFLOW } from '../src/temporal/workflow-types';
import { startSimulator } from '../src/telephony/simulator/server';
import type { OutboundCallInput } from '../workflows/calls/outbound-call-types';
import { benchConfig, benchWorkspace, listenApp, runServiceWorkers } from './in-process';
import { CpuLedger, cpuMeter, postmasterOf, type CpuSnapshot } from './cpu-accounting';
import { measure, report, type BenchContext, type Figure } from './lib';

export const description =
  'Campaigns: paced dial rate vs calls_per_minute; full-speed call starts/s vs a bare client at the same concurrency (before and after); work per call; rss 1k vs 10k leads; max history';
/** P10: at full speed at least 0.80 of the bare client's call starts per second. */
export const goal = 0.8;
export const options = {
  leads: 'leads of the large full-speed campaign (default 10000)',
  small: 'leads of the small full-speed campaign, and calls of the bare client (default 1000)',
  paced: 'leads of the paced campaign (default 300)',
  rate: "calls_per_minute of the paced campaign (default: half the bare client's calls per minute, measured first, so below capacity)",
  concurrency: "max_concurrent, and the bare client's calls in flight (default 16)",
  speed: 'carrier simulator speed (default 100)',
};

const ANY_TIME = { start: '00:00', end: '23:59' };

/** A workspace with an agent, no cap in the way, and `n` leads tagged `tag` (phones ending in 8: a person answers). */
async function workspaceWithLeads(db: Db, ctx: BenchContext, sizes: Record<string, number>) {
  const ws = await benchWorkspace(db, ctx, 'campaign');
  await db.query('UPDATE workspaces SET max_concurrent_calls = 1000000 WHERE id = $1', [ws.id]);
  const group = await createPhoneGroup(db, ws.id, { name: 'bench', numbers: ['12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Bench', phoneGroupId: group.id });
  let offset = 0;
  for (const [tag, n] of Object.entries(sizes)) {
    await db.query(
      `INSERT INTO leads (id, workspace_id, phone, tags) SELECT gen_random_uuid(), $1, '1212' || (2000000 + g * 10 + 8)::text, ARRAY[$2] FROM generate_series($3::int, $4::int) g`,
      [ws.id, tag, offset, offset + n - 1],
    );
    offset += n;
  }
  return { workspaceId: ws.id, agentId: agent.id };
}

export async function run(ctx: BenchContext): Promise<number> {
  const large = ctx.flags.int('leads', 10_000);
  const small = ctx.flags.int('small', 1000);
  const paced = ctx.flags.int('paced', 300);
  const askedRate = ctx.flags.int('rate', 0);
  const concurrency = ctx.flags.int('concurrency', 16);
  const speed = ctx.flags.int('speed', 100);

  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 20 });
  ctx.defer(() => db.close());
  await migrate(db);
  const sim = await startSimulator({ authToken: 'simulator-auth-token', speed });
  ctx.defer(() => sim.close());
  const prefix = `bench-campaign-${randomBytes(3).toString('hex')}`;
  const config = benchConfig(ctx, databaseUrl, prefix, { TELEPHONY_BASE_URL: sim.url });
  const logger = createLogger('warn', 'bench');
  const { connection, client } = await connectTemporal(config);
  ctx.defer(() => connection.close());
  await ensureSearchAttributes(connection, ctx.temporal.namespace);
  // The api answers the simulator's callbacks.
  const port = await listenApp(ctx, { config, db, temporal: { connection, client }, logger });
  config.TELEPHONY_CALLBACK_BASE_URL = `http://127.0.0.1:${port}`;
  await runServiceWorkers(ctx, { config, db, logger });

  const ws = await workspaceWithLeads(db, ctx, { paced, small, large });
  const deps = { db, client, taskQueuePrefix: prefix };
  // CPU per process group: the Temporal server when this run started it, the local Postgres, this process (api, workers, simulator).
  const backend = await db.one<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const meter = cpuMeter({ postmasterPid: postmasterOf(backend!.pid) });

  /** Runs one phase of `work` (its calls: `ops`), booking the CPU every process spent per call meanwhile. */
  const phase = async <T extends { ops: number }>(work: () => Promise<T>): Promise<T & { cpu: CpuSnapshot & { total: number } }> => {
    const ledger = new CpuLedger(meter);
    const r = await ledger.book(work);
    return { ...r, cpu: ledger.perOp() };
  };
  /** History events per call of the runs a visibility query finds (the campaign's own runs apart), and the longest. */
  const historyPerCall = async (query: string, calls: number) => {
    // Visibility records a run's history length when it closes, a moment after its result (event deliveries end last).
    for (let i = 0; i < 120 && (await client.workflow.count(`${query} AND ExecutionStatus = 'Running'`)).count > 0; i++) await sleep(500);
    let all = 0;
    let campaignRuns = 0;
    let maxCampaign = 0;
    for await (const r of client.workflow.list({ query })) {
      all += r.historyLength;
      if (r.type === 'campaignRun') {
        campaignRuns += r.historyLength;
        maxCampaign = Math.max(maxCampaign, r.historyLength);
      }
    }
    return { events: all / calls, campaignEvents: campaignRuns / calls, maxCampaign };
  };

  /** Runs a campaign to its end; its call starts per second (first to last start, and in its first and last tenth), work per call. */
  const campaign = async (tag: string, extra: { calls_per_minute?: number }) => {
    const run = await phase(async () => {
      const { campaign_id: id } = await createCampaign(deps, ws.workspaceId, {
        name: tag,
        agent: ws.agentId,
        spec: { audience: { tag }, window: ANY_TIME, max_concurrent: concurrency, ...extra },
      });
      await client.workflow.getHandle(campaignWorkflowId(id)).result();
      const tenths = await db.query<{ n: number; s: number }>(
        `SELECT count(*)::int AS n, extract(epoch FROM max(created_at) - min(created_at))::float8 AS s
         FROM (SELECT created_at, ntile(10) OVER (ORDER BY created_at) AS t FROM campaign_calls WHERE campaign_id = $1) c GROUP BY t ORDER BY t`,
        [id],
      );
      const n = tenths.reduce((sum, t) => sum + t.n, 0);
      const span = (await db.one<{ s: number }>(
        'SELECT extract(epoch FROM max(created_at) - min(created_at))::float8 AS s FROM campaign_calls WHERE campaign_id = $1',
        [id],
      ))!;
      const rate = (t: { n: number; s: number } | undefined) => (t && t.s > 0 ? (t.n - 1) / t.s : NaN);
      return { id, ops: n, perSecond: (n - 1) / span.s, firstTenth: rate(tenths[0]), lastTenth: rate(tenths.at(-1)) };
    });
    return { ...run, history: await historyPerCall(`CampaignId = '${run.id}'`, run.ops) };
  };

  /** The bare client: `small` outboundCall runs, `concurrency` in flight; starts per second (first to last start) and work per call. */
  const bare = async () => {
    const from = new Date();
    const run = await phase(async () => {
      const starts: number[] = [];
      await measure(small, concurrency, async () => {
        const callId = randomUUID();
        const input: OutboundCallInput = {
          callId,
          workspaceId: ws.workspaceId,
          agentId: ws.agentId,
          to: '12125554328',
          waitForSlot: true,
          source: 'api',
          window: ANY_TIME,
        };
        const handle = await startWorkflow(client, WORKFLOW.outboundCall, {
          taskQueue: taskQueue('calls', prefix),
          workflowId: callWorkflowId(callId),
          args: [input],
        });
        starts.push(performance.now());
        await handle.result();
      });
      // As for the campaign: first to last start.
      return { ops: small, perSecond: (small - 1) / ((Math.max(...starts) - Math.min(...starts)) / 1000) };
    });
    const window = `StartTime >= '${from.toISOString()}' AND StartTime <= '${new Date().toISOString()}'`;
    return { ...run, history: await historyPerCall(`WorkspaceId = '${ws.workspaceId}' AND CampaignId IS NULL AND ${window}`, run.ops) };
  };

  ctx.say(`Bare client: ${small} outboundCall runs, ${concurrency} in flight…`);
  const rawBefore = await bare();

  // The goal holds below capacity: by default half of what the bare client achieved at the same concurrency.
  const rate = askedRate || Math.max(1, Math.round(rawBefore.perSecond * 30));
  ctx.say(`Paced: ${paced} leads at ${rate} calls_per_minute…`);
  const pacedRun = await campaign('paced', { calls_per_minute: rate });
  const dialRate = pacedRun.perSecond * 60;

  ctx.say(`Full speed: ${small} leads, then ${large}, ${concurrency} at once…`);
  const smallRun = await campaign('small', {});
  const rssSmall = process.memoryUsage().rss;
  const largeRun = await campaign('large', {});
  const rssLarge = process.memoryUsage().rss;
  ctx.say(`Bare client again, after the campaigns: ${small} outboundCall runs…`);
  const rawAfter = await bare();

  const ms = (us: number) => us / 1000;
  /** The work one call cost in a phase: history events (all runs, the campaign's own) and CPU per process. */
  const work = (label: string, r: { cpu: CpuSnapshot & { total: number }; history: { events: number; campaignEvents: number } }): Figure[] => [
    [`${label}: history events per call (every run; the campaign's own runs)`, `${r.history.events.toFixed(1)}; ${r.history.campaignEvents.toFixed(1)}`],
    [
      `${label}: CPU ms per call (Temporal server${ctx.temporal.ownServer ? '' : ' not ours: not counted'}, Postgres, this process)`,
      `${ms(r.cpu.temporal).toFixed(1)}, ${ms(r.cpu.postgres).toFixed(1)}, ${ms(r.cpu.bench).toFixed(1)}`,
    ],
  ];
  const figures: Figure[] = [
    [`paced: achieved dial rate (${paced} leads, calls_per_minute ${rate})`, dialRate, '/min'],
    ['paced: achieved / calls_per_minute', dialRate / rate],
    [`bare client: outboundCall runs started per second, ${concurrency} in flight`, rawBefore.perSecond, '/s'],
    [`campaign at full speed (${small} leads): calls started per second`, smallRun.perSecond, '/s'],
    [`campaign at full speed (${large} leads): calls started per second`, largeRun.perSecond, '/s'],
    [
      `campaign (${large} leads): calls started per second in its first and last tenth`,
      `${largeRun.firstTenth.toFixed(2)}, ${largeRun.lastTenth.toFixed(2)}`,
      '/s',
    ],
    [`bare client after the campaigns: outboundCall runs started per second`, rawAfter.perSecond, '/s'],
    [`campaign (${large} leads) / bare client after the campaigns`, largeRun.perSecond / rawAfter.perSecond],
    ...work('bare client', rawBefore),
    ...work(`campaign (${small} leads)`, smallRun),
    ...work(`campaign (${large} leads)`, largeRun),
    ...work('bare client after', rawAfter),
    [`rss after the ${small}-lead campaign (api and workers in this process)`, rssSmall / 2 ** 20, 'MiB'],
    [`rss after the ${large}-lead campaign`, rssLarge / 2 ** 20, 'MiB'],
    [`rss ${small} leads / rss ${large} leads`, rssSmall / rssLarge],
    ['longest campaign run history', Math.max(pacedRun.history.maxCampaign, smallRun.history.maxCampaign, largeRun.history.maxCampaign), 'events'],
  ];
  // P10 is about the large campaign (10,000 leads by default): its rate is the one compared, with the bare client's
  // measured before and after it (the dev server's CPU per call grows as its store fills, for both sides alike), so
  // the baseline spans the server states the campaign ran in.
  const bracket = (rawBefore.perSecond + rawAfter.perSecond) / 2;
  figures.push([`campaign (${large} leads) / bare client before the campaigns`, largeRun.perSecond / rawBefore.perSecond]);
  return report('campaign', figures, {
    value: largeRun.perSecond / bracket,
    what: `${large}-lead campaign call starts/s / the mean of the bare client's outboundCall starts/s before and after the campaigns, ${concurrency} in flight`,
  });
}
