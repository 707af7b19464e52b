// Every workflow type the worker registers, started the way production starts it (api routes, the workflows that
// start children, the refresh and reclaim schedules), carries its search attributes: read back from Temporal with
// describe().
// A type the worker registers without a row in the table below fails the test.
import type { WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { importFlow } from '../../src/chat/db/flows';
import { parseFlowGraph } from '../../src/chat/flow-schema';
import { publishConnectionBroken } from '../../src/connections/events';
import { ensureRefreshSchedule, refreshScheduleId } from '../../src/connections/schedule';
import { callEventId } from '../../src/calls/events';
import { ensureReclaimSchedule, reclaimScheduleId } from '../../src/calls/schedule';
import { campaignEventWorkflowId, callEventWorkflowId, callWorkflowId, campaignWorkflowId, chatWorkflowId, leadImportWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes, SA } from '../../src/temporal/search-attributes';
import { createApiKey } from '../../src/workspaces/db/api-keys';
import * as workflows from '../../workflows';
import { campaignEventId } from '../../workflows/campaigns/events';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { ChatClient } from '../helpers/chat-client';
import { importSteps, runOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(240_000);

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
/** Runs to check, per workflow type: the run's workflow id and the custom search attributes it must carry, exactly. */
const runs: Record<string, { how: string; workflowId: string; expected: Record<string, unknown> }[]> = {};
const add = (type: string, how: string, workflowId: string, expected: Record<string, unknown>) => (runs[type] ??= []).push({ how, workflowId, expected });
const ANY_TIME = { start: '00:00', end: '23:59' };
const OUR_KEYS = new Set(Object.values(SA).map((k) => k.name));

/** The children a run started, by workflow type. */
async function childrenOf(handle: WorkflowHandle): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const e of (await handle.fetchHistory()).events ?? []) {
    const a = e.startChildWorkflowExecutionInitiatedEventAttributes;
    if (a) (out[a.workflowType!.name!] ??= []).push(a.workflowId!);
  }
  return out;
}

/** Our custom search attributes of the run, as Temporal holds them now. */
async function attributesOf(workflowId: string): Promise<{ type: string; attributes: Record<string, unknown> }> {
  const d = await app.temporal.client.workflow.getHandle(workflowId).describe();
  const attributes: Record<string, unknown> = {};
  for (const p of d.typedSearchAttributes.getAll()) if (OUR_KEYS.has(p.key.name)) attributes[p.key.name] = p.value;
  return { type: d.type, attributes };
}

beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  hooks = await receiver.start();
  const ws = await callingWorkspace(app);
  const superuserKey = (await createApiKey(app.db, ws.workspaceId, { name: 'admin', superuser: true })).key;
  const { workspaceId, agentId, apiKey } = ws;
  const proxy = { automationType: 'proxy', action: 'request', params: { apiMethod: 'POST', apiURL: `${hooks}/crm`, requestBodyJson: { a: 1 } } };

  // A journey with a trigger (a hook subscribed), an automation step and a call step: the enrollment and its children.
  const journey = await importSteps(app, workspaceId, [
    { id: 'handoff', kind: 'trigger' },
    { id: 'crm', kind: 'automation', ...proxy },
    { id: 'ring', kind: 'call', agent: agentId, window: ANY_TIME },
    { id: 'stop', kind: 'end' },
  ]);
  const hook = await app.request('POST', '/v1/hooks', {
    key: apiKey,
    body: { journey_id: journey.id, automation_node_id: 'handoff', webhook_url: `${hooks}/t` },
  });
  expect(hook.status).toBe(200);
  const enrolled = await app.request('POST', '/v1/lead/sendtoworkflow', {
    key: apiKey,
    body: { workflow_id: journey.id, record: { phone: phoneEnding('0001') } },
  });
  expect(enrolled.status).toBe(200);
  const leadId = enrolled.body.lead_id as string;
  const enrollment = runOf(app, journey.id, leadId);
  await enrollment.result();
  const journeyIds = { WorkspaceId: workspaceId, LeadId: leadId, JourneyId: journey.id };
  add('journeyEnrollment', 'POST /v1/lead/sendtoworkflow', enrollment.workflowId, { ...journeyIds, Outcome: 'completed' });
  const fromJourney = await childrenOf(enrollment);
  add('deliverJourneyTrigger', 'the journey step trigger', fromJourney.deliverJourneyTrigger![0]!, journeyIds);
  // The automation step runs inline in the enrollment's run (found by its lead and journey): no child of its own, and
  // its stored run (GET /api/automation/runs/{requestId}) names the enrollment's run.
  expect(fromJourney.automationRun).toBeUndefined();
  const stepRuns = await app.db.query(`SELECT workflow_id, success FROM automation_runs WHERE workspace_id = $1 AND node_id = 'crm'`, [workspaceId]);
  expect(stepRuns).toEqual([{ workflow_id: enrollment.workflowId, success: true }]);
  const journeyCall = fromJourney.outboundCall![0]!;
  const callIds = (workflowId: string) => ({ WorkspaceId: workspaceId, CallId: workflowId.slice('call:'.length), AgentId: agentId });
  add('outboundCall', 'the journey step call', journeyCall, { ...journeyIds, ...callIds(journeyCall), Outcome: 'human' });
  const journeyEvents = (await childrenOf(app.temporal.client.workflow.getHandle(journeyCall))).deliverCallEvent!;
  expect(journeyEvents).toHaveLength(2);
  for (const id of journeyEvents) add('deliverCallEvent', 'a journey call', id, { ...journeyIds, ...callIds(journeyCall) });

  // A call through the api, to a phone no lead has.
  const placed = await app.request('POST', '/v1/agent', { key: apiKey, body: { agent: agentId, phone: phoneEnding('0001') } });
  expect(placed.status).toBe(200);
  const apiCall = callWorkflowId(placed.body.call_id);
  await app.temporal.client.workflow.getHandle(apiCall).result();
  add('outboundCall', 'POST /v1/agent', apiCall, { ...callIds(apiCall), Outcome: 'human' });
  add('deliverCallEvent', 'an api call', callEventWorkflowId(callEventId(placed.body.call_id, 'call.completed')), callIds(apiCall));

  // The automation endpoint.
  const executed = await app.request('POST', '/api/automation/execute', {
    headers: { 'x-key': superuserKey },
    body: { automationType: 'proxy', nodeParams: { action: 'request', params: proxy.params } },
  });
  expect(executed.body.success).toBe(true);
  add('automationRun', 'POST /api/automation/execute', executed.body.metadata.workflowId, {
    WorkspaceId: workspaceId,
    AutomationType: 'proxy',
    Outcome: 'succeeded',
  });

  // A campaign of one lead, and its events.
  const lead = await app.request('POST', '/v1/lead/create', { key: apiKey, body: { phone: phoneEnding('0001') } });
  expect(lead.status).toBe(200);
  expect((await app.request('PATCH', '/v1/lead/tag', { key: apiKey, body: { lead_id: lead.body.lead_id, tag: 'spring' } })).status).toBe(200);
  const campaign = await app.request('POST', '/v1/campaigns', {
    key: apiKey,
    body: { name: 'Spring', agent: agentId, audience: { tag: 'spring' }, window: ANY_TIME },
  });
  expect(campaign.status).toBe(200);
  const campaignId = campaign.body.campaign_id as string;
  const campaignRun = app.temporal.client.workflow.getHandle(campaignWorkflowId(campaignId));
  await campaignRun.result();
  const campaignIds = { WorkspaceId: workspaceId, CampaignId: campaignId, AgentId: agentId };
  add('campaignRun', 'POST /v1/campaigns', campaignRun.workflowId, { ...campaignIds, Outcome: 'completed' });
  for (const type of ['campaign.started', 'campaign.completed'] as const) {
    add('deliverCampaignEvent', type, campaignEventWorkflowId(campaignEventId(campaignId, type)), campaignIds);
  }
  // Its call, from the campaign's record (the run may have continued as new since it started the call).
  const campaignCall = callWorkflowId(
    (await app.db.one<{ call_id: string }>('SELECT call_id FROM campaign_calls WHERE campaign_id = $1', [campaignId]))!.call_id,
  );
  const campaignCallIds = { ...callIds(campaignCall), LeadId: lead.body.lead_id, CampaignId: campaignId };
  add('outboundCall', 'a campaign', campaignCall, { ...campaignCallIds, Outcome: 'human' });
  add('deliverCallEvent', 'a campaign call', callEventWorkflowId(callEventId(campaignCall.slice('call:'.length), 'call.completed')), campaignCallIds);

  // A lead import.
  const imported = await app.request('POST', '/v1/leads/import', {
    key: apiKey,
    body: `phone\n${phoneEnding('4321')}\n`,
    headers: { 'content-type': 'text/csv' },
  });
  expect(imported.status).toBe(202);
  add('leadImport', 'POST /v1/leads/import', leadImportWorkflowId(imported.body.import_id), { WorkspaceId: workspaceId });

  // A chat with a lead whose flow runs an automation node.
  const graph = {
    nodes: [
      { id: 'start', type: 'start', next: 'ask' },
      { id: 'ask', type: 'question', text: 'Your company?', field: 'company', next: 'sync' },
      { id: 'sync', type: 'automation', integration: 'proxy', action: 'request', params: proxy.params, next: 'end' },
      { id: 'end', type: 'end', text: 'Bye.' },
    ],
  };
  const flowId = (await importFlow(app.db, workspaceId, { name: 'Attrs', publicChat: true, ownerName: 'Ava', graph: parseFlowGraph(graph) })).id;
  const session = await app.request('POST', '/webchat/session', { key: apiKey, body: { record: { phone: phoneEnding('0002') }, flow_id: flowId } });
  expect(session.status).toBe(200);
  const chat = new ChatClient(`${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/${session.body.session}/r/false`);
  const chatRun = chatWorkflowId(session.body.session);
  await chat.take(3);
  // The conversation's run starts with its first turn.
  chat.say('Acme');
  const chatAutomation = await eventually(
    async () => (await childrenOf(app.temporal.client.workflow.getHandle(chatRun))).automationRun?.[0],
    60_000,
    'the chat automation',
  );
  chat.close();
  const chatLeadId = (await app.db.one<{ lead_id: string }>('SELECT lead_id FROM chat_sessions WHERE id = $1', [session.body.session]))!.lead_id;
  const chatIds = { WorkspaceId: workspaceId, FlowId: flowId, LeadId: chatLeadId };
  add('chatSession', 'the chat WebSocket', chatRun, chatIds);
  await app.temporal.client.workflow.getHandle(chatAutomation).result();
  add('automationRun', 'a chat flow node', chatAutomation, { ...chatIds, AutomationType: 'proxy', Outcome: 'succeeded' });

  // A connection event, as the refresh activities start it.
  const connectionEvent = await publishConnectionBroken(app.temporal.client, app.config.TEMPORAL_TASK_QUEUE_PREFIX, {
    workspaceId,
    connectionId: randomUUID(),
    brokenAt: new Date(),
  });
  add('deliverConnectionEvent', 'a broken connection', connectionEvent.workflowId, { WorkspaceId: workspaceId });

  // The refresh schedule's run: workspace-less, none of our attributes apply (Temporal marks it with the schedule's id).
  const prefix = app.config.TEMPORAL_TASK_QUEUE_PREFIX;
  await ensureRefreshSchedule(app.temporal.client, prefix, { everyMinutes: 24 * 60, horizonSeconds: 0 });
  const schedule = app.temporal.client.schedule.getHandle(refreshScheduleId(prefix));
  try {
    await schedule.trigger();
    const started = await eventually(async () => (await schedule.describe()).info.recentActions[0]?.action.workflow.workflowId, 30_000, 'the scheduled run');
    add('refreshExpiringConnections', 'the refresh schedule', started, {});
  } finally {
    await schedule.delete();
  }
  // The reclaim schedule's run, as workspace-less (it reclaims no call here: none is a year old).
  await ensureReclaimSchedule(app.temporal.client, prefix, { everyMinutes: 24 * 60, olderThanSeconds: 365 * 24 * 3600 });
  const reclaim = app.temporal.client.schedule.getHandle(reclaimScheduleId(prefix));
  try {
    await reclaim.trigger();
    const started = await eventually(async () => (await reclaim.describe()).info.recentActions[0]?.action.workflow.workflowId, 30_000, 'the scheduled reclaim');
    add('reclaimUnstartedCalls', 'the reclaim schedule', started, {});
  } finally {
    await reclaim.delete();
  }
});

afterAll(async () => {
  await receiver.close();
  await app?.close();
});

describe('search attributes of every workflow type', () => {
  it.each(Object.keys(workflows).sort())('%s: every way it starts carries its ids', async (type) => {
    expect(runs[type]?.length ?? 0).toBeGreaterThan(0);
    for (const run of runs[type]!) {
      const got = await attributesOf(run.workflowId);
      expect({ how: run.how, ...got }).toEqual({ how: run.how, type, attributes: run.expected });
    }
  });

  it('checks only types the worker registers, and the one place start attributes come from names each of them', () => {
    expect(Object.keys(runs).sort()).toEqual(Object.keys(workflows).sort());
    expect(Object.keys(runSearchAttributes).sort()).toEqual(Object.keys(workflows).sort());
  });
});
