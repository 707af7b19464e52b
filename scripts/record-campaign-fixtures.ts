// Records the campaign workflows' replay fixtures (campaignRun, deliverCampaignEvent): runs each path on the test stack (a
// private Postgres, a Temporal dev server and the carrier simulator) and saves the run's history as
// test/fixtures/campaign-history-<path>[-<tag>].json. It never replaces a file: old histories must keep replaying, so a
// new recording gets a new name (--tag).
//
//   node bin/run-ts.js scripts/record-campaign-fixtures.ts [--tag v2] [--only completed,event-delivered]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { CampaignRunInput } from '../src/campaigns/types';
import { campaignEventWorkflowId, campaignWorkflowId } from '../src/temporal/ids';
import { taskQueue } from '../src/temporal/task-queues';
import { startWorkflow, WORKFLOW } from '../src/temporal/workflow-types';
import { callingWorkspace, phoneEnding } from '../test/helpers/calls';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp, type TestApp } from '../test/helpers/stack';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { campaignEventId } from '../workflows/campaigns/events';
import { planRecording, runRecorder } from './fixture-recorder';

const ANY_TIME = { start: '00:00', end: '23:59' };
type Ws = Awaited<ReturnType<typeof callingWorkspace>>;

async function leads(app: TestApp, ws: Ws, phones: string[], tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (const phone of phones) {
    const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone } });
    if (res.status !== 200) throw new Error(`lead: ${res.status} ${JSON.stringify(res.body)}`);
    await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: res.body.lead_id, tag } });
    ids.push(res.body.lead_id);
  }
  return ids;
}

async function create(app: TestApp, ws: Ws, body: Record<string, unknown>): Promise<string> {
  const res = await app.request('POST', '/v1/campaigns', { key: ws.apiKey, body: { name: 'Fixture', agent: ws.agentId, ...body } });
  if (res.status !== 200) throw new Error(`campaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.campaign_id;
}

/** A campaign of two tagged leads (one answers, one is busy and called once more) with a subscriber to its events, run to its end; its id. */
async function subscribedCampaign(app: TestApp, hooks: string): Promise<string> {
  const ws = await callingWorkspace(app);
  const sub = await app.request('POST', '/v1/calls/subscriptions', {
    key: ws.apiKey,
    body: { url: `${hooks}/campaigns`, events: ['campaign.started', 'campaign.completed'] },
  });
  if (sub.status !== 200) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
  await leads(app, ws, [phoneEnding('0001'), phoneEnding('0004')], 'spring');
  const id = await create(app, ws, { name: 'Spring', audience: { tag: 'spring' }, window: ANY_TIME, retries: { attempts: 1, spacing: 'PT1S' } });
  const r = (await app.temporal.client.workflow.getHandle(campaignWorkflowId(id)).result()) as { status: string };
  if (r.status !== 'completed') throw new Error(`campaign ended ${r.status}`);
  return id;
}

/** Every path, by name: each plays a campaign to its end and returns the run to save. */
const campaignPaths: Record<string, (app: TestApp, hooks: string) => Promise<{ workflowId: string; runId?: string }>> = {
  // A tag audience: human, voicemail, a no_answer called again once, a do-not-call lead skipped; two calls at once.
  completed: async (app) => {
    const ws = await callingWorkspace(app);
    const dnc = phoneEnding('0001');
    await leads(app, ws, [phoneEnding('0001'), phoneEnding('0002'), phoneEnding('0003'), dnc], 'fixture');
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [ws.workspaceId, dnc]);
    const id = await create(app, ws, { audience: { tag: 'fixture' }, window: ANY_TIME, max_concurrent: 2, retries: { attempts: 1, spacing: 'PT0.001S' } });
    await app.temporal.client.workflow.getHandle(campaignWorkflowId(id)).result();
    return { workflowId: campaignWorkflowId(id) };
  },
  // Paced at 600 calls a minute (100 ms apart, a late timer's missed starts made up: patch campaign-pacing-catch-up).
  paced: async (app) => {
    const ws = await callingWorkspace(app);
    await leads(app, ws, [phoneEnding('0002'), phoneEnding('0003'), phoneEnding('0002'), phoneEnding('0003')], 'paced');
    const id = await create(app, ws, { audience: { tag: 'paced' }, window: ANY_TIME, max_concurrent: 4, calls_per_minute: 600 });
    await app.temporal.client.workflow.getHandle(campaignWorkflowId(id)).result();
    return { workflowId: campaignWorkflowId(id) };
  },
  // Three calls at two per run: the first run ends continuing as new (that run is saved).
  continued: async (app) => {
    const ws = await callingWorkspace(app);
    await leads(app, ws, [phoneEnding('4321'), phoneEnding('4321'), phoneEnding('4321')], 'many');
    const id = randomUUID();
    const input: CampaignRunInput = {
      campaignId: id,
      workspaceId: ws.workspaceId,
      agentId: ws.agentId,
      name: 'Fixture',
      callsPerRun: 2,
      spec: { audience: { tag: 'many' }, window: ANY_TIME, max_concurrent: 2 },
    };
    const handle = await startWorkflow(app.temporal.client, WORKFLOW.campaignRun, {
      workflowId: campaignWorkflowId(id),
      taskQueue: taskQueue('journeys', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [input],
    });
    await handle.result();
    return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
  },
  // Canceled while it waits for start_at: nothing called.
  canceled: async (app) => {
    const ws = await callingWorkspace(app);
    await leads(app, ws, [phoneEnding('0001')], 'later');
    const id = await create(app, ws, { audience: { tag: 'later' }, window: ANY_TIME, start_at: '2099-01-01T00:00:00Z' });
    const handle = app.temporal.client.workflow.getHandle(campaignWorkflowId(id));
    // Once the run has opened the campaign and waits: its audience snapshot is taken.
    for (let i = 0; ; i++) {
      const row = await app.db.one<{ audience_size: number | null }>('SELECT audience_size FROM campaigns WHERE id = $1', [id]);
      if (row?.audience_size !== null && row?.audience_size !== undefined) break;
      if (i > 300) throw new Error('the canceled path never opened its campaign');
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await app.request('POST', `/v1/campaigns/${id}/cancel`, { key: ws.apiKey });
    if (res.status !== 200) throw new Error(`cancel: ${res.status} ${JSON.stringify(res.body)}`);
    await handle.result();
    return { workflowId: handle.workflowId };
  },
  /** deliverCampaignEvent of a campaign's campaign.completed, delivered to its subscriber. */
  'event-delivered': async (app, hooks) => {
    const workflowId = campaignEventWorkflowId(campaignEventId(await subscribedCampaign(app, hooks), 'campaign.completed'));
    const r = (await app.temporal.client.workflow.getHandle(workflowId).result()) as { delivered: number };
    if (r.delivered !== 1) throw new Error(`campaign.completed delivered to ${r.delivered} subscribers`);
    return { workflowId };
  },
};

const plan = planRecording('campaign', Object.keys(campaignPaths));

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const receiver = new WebhookReceiver();
  const app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.0/8' } });
  try {
    const hooks = await receiver.start();
    await plan.recordAll(app.temporal.client, (name) => campaignPaths[name]!(app, hooks));
  } finally {
    await receiver.close();
    await app.close();
    await globalTeardown();
  }
}

runRecorder(main);
