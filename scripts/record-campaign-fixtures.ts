// Records the campaign workflows' replay fixtures: runs each path through the api on the test stack (calls through the
// carrier simulator) and saves its history as test/fixtures/campaign-history-<path>[-<tag>].json. It never replaces a
// file: old histories must keep replaying.
//
//   node bin/run-ts.js scripts/record-campaign-fixtures.ts [--tag v2] [--only completed,event-delivered]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { campaignEventWorkflowId, campaignWorkflowId } from '../src/temporal/ids';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { callingWorkspace, phoneEnding } from '../test/helpers/calls';
import { startTestApp, type TestApp } from '../test/helpers/stack';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { campaignEventId } from '../workflows/campaigns/events';
import { planRecording, runRecorder } from './fixture-recorder';

type Run = { workflowId: string; runId?: string };

/** A campaign of two tagged leads (one answers, one is busy and called once more), run to its end; its id. */
async function campaign(app: TestApp, hooks: string): Promise<string> {
  const ws = await callingWorkspace(app);
  const sub = await app.request('POST', '/v1/calls/subscriptions', {
    key: ws.apiKey,
    body: { url: `${hooks}/campaigns`, events: ['campaign.started', 'campaign.completed'] },
  });
  if (sub.status !== 200) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
  for (const last4 of ['0001', '0004']) {
    const lead = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: phoneEnding(last4) } });
    await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.body.lead_id, tag: 'spring' } });
  }
  const res = await app.request('POST', '/v1/campaigns', {
    key: ws.apiKey,
    body: {
      name: 'Spring',
      agent: ws.agentId,
      audience: { tag: 'spring' },
      window: { start: '00:00', end: '23:59' },
      retries: { attempts: 1, spacing: 'PT1S' },
    },
  });
  if (res.status !== 200) throw new Error(`campaign: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.campaign_id as string;
  const r = (await app.temporal.client.workflow.getHandle(campaignWorkflowId(id)).result()) as { status: string };
  if (r.status !== 'completed') throw new Error(`campaign ended ${r.status}`);
  return id;
}

let ran: Promise<string> | undefined;
/** Both paths record the same campaign. */
const campaignOnce = (app: TestApp, hooks: string) => (ran ??= campaign(app, hooks));

/** Every path, by name: each returns the run to save once it ended. */
const campaignPaths: Record<string, (app: TestApp, hooks: string) => Promise<Run>> = {
  /** campaignRun: two leads, a retry after busy, calls as outboundCall children, ends completed. */
  completed: async (app, hooks) => {
    const handle = app.temporal.client.workflow.getHandle(campaignWorkflowId(await campaignOnce(app, hooks)));
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },
  /** deliverCampaignEvent of the campaign's campaign.completed, delivered to its subscriber. */
  'event-delivered': async (app, hooks) => {
    const workflowId = campaignEventWorkflowId(campaignEventId(await campaignOnce(app, hooks), 'campaign.completed'));
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
