// P10: campaigns through the carrier simulator (api, workers and simulator in this process): the dial rate a paced
// campaign achieves against its calls_per_minute; at full speed, calls started per second against a bare client
// keeping the same number of outboundCall runs in flight; rss after a small and a large campaign; the longest
// campaign history.
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
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
import { measure, report, type BenchContext, type Figure } from './lib';

export const description =
  'Campaigns: paced dial rate vs calls_per_minute; full-speed call starts/s vs a bare client at the same concurrency; rss 1k vs 10k leads; max history';
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
  await runServiceWorkers(ctx, { config, db, logger }, { bench: 'campaign' });

  const ws = await workspaceWithLeads(db, ctx, { paced, small, large });
  const deps = { db, client, taskQueuePrefix: prefix };
  /** Runs a campaign to its end; its call starts per second (first to last start) and its runs' longest history. */
  const campaign = async (tag: string, extra: { calls_per_minute?: number }) => {
    const { campaign_id: id } = await createCampaign(deps, ws.workspaceId, {
      name: tag,
      agent: ws.agentId,
      spec: { audience: { tag }, window: ANY_TIME, max_concurrent: concurrency, ...extra },
    });
    await client.workflow.getHandle(campaignWorkflowId(id)).result();
    const span = (await db.one<{ n: number; s: number }>(
      'SELECT count(*)::int AS n, extract(epoch FROM max(created_at) - min(created_at))::float8 AS s FROM campaign_calls WHERE campaign_id = $1',
      [id],
    ))!;
    let maxHistory = 0;
    for await (const r of client.workflow.list({ query: `WorkflowId = '${campaignWorkflowId(id)}'` })) maxHistory = Math.max(maxHistory, r.historyLength);
    return { calls: span.n, perSecond: (span.n - 1) / span.s, maxHistory };
  };

  ctx.say(`Bare client: ${small} outboundCall runs, ${concurrency} in flight…`);
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
  const rawPerSecond = (small - 1) / ((Math.max(...starts) - Math.min(...starts)) / 1000);

  // The goal holds below capacity: by default half of what the bare client achieved at the same concurrency.
  const rate = askedRate || Math.max(1, Math.round(rawPerSecond * 30));
  ctx.say(`Paced: ${paced} leads at ${rate} calls_per_minute…`);
  const pacedRun = await campaign('paced', { calls_per_minute: rate });
  const dialRate = pacedRun.perSecond * 60;

  ctx.say(`Full speed: ${small} leads, then ${large}, ${concurrency} at once…`);
  const smallRun = await campaign('small', {});
  const rssSmall = process.memoryUsage().rss;
  const largeRun = await campaign('large', {});
  const rssLarge = process.memoryUsage().rss;

  const figures: Figure[] = [
    [`paced: achieved dial rate (${paced} leads, calls_per_minute ${rate})`, dialRate, '/min'],
    ['paced: achieved / calls_per_minute', dialRate / rate],
    [`bare client: outboundCall runs started per second, ${concurrency} in flight`, rawPerSecond, '/s'],
    [`campaign at full speed (${small} leads): calls started per second`, smallRun.perSecond, '/s'],
    [`campaign at full speed (${large} leads): calls started per second`, largeRun.perSecond, '/s'],
    [`rss after the ${small}-lead campaign (api and workers in this process)`, rssSmall / 2 ** 20, 'MiB'],
    [`rss after the ${large}-lead campaign`, rssLarge / 2 ** 20, 'MiB'],
    [`rss ${small} leads / rss ${large} leads`, rssSmall / rssLarge],
    ['longest campaign run history', Math.max(pacedRun.maxHistory, smallRun.maxHistory, largeRun.maxHistory), 'events'],
  ];
  // P10 is about the large campaign (10,000 leads by default): its rate is the one compared.
  return report('campaign', figures, {
    value: largeRun.perSecond / rawPerSecond,
    what: `${large}-lead campaign call starts/s / bare client outboundCall starts/s at ${concurrency} in flight`,
  });
}
