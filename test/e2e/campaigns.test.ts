// Campaigns end to end: the run calls its audience through outboundCall children on the carrier simulator (outcomes by
// the destination's last four digits), counts every outcome, and obeys pause, resume and cancel.
import { randomUUID } from 'node:crypto';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { campaignWorkflowId } from '../../src/temporal/ids';
import { taskQueue } from '../../src/temporal/task-queues';
import { startWorkflow, WORKFLOW } from '../../src/temporal/workflow-types';
import type { CampaignRunInput } from '../../src/campaigns/types';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
beforeAll(async () => {
  // A silent call (…0007) fails after 3 s without a callback: the tests hold a call in progress with one.
  app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', CALL_PROVIDER_TIMEOUT_SECONDS: '3' } });
  hooks = await receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

const ANY_TIME = { start: '00:00', end: '23:59' };
type Ws = Awaited<ReturnType<typeof callingWorkspace>>;

/** A lead with this phone (and fields), tagged. */
async function lead(ws: Ws, phone: string, tag: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone, ...fields } });
  expect(res.status).toBe(200);
  await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: res.body.lead_id, tag } });
  return res.body.lead_id;
}
const view = async (ws: Ws, id: string) => (await app.request('GET', `/v1/campaigns/${id}`, { key: ws.apiKey })).body.campaign;
const ended = (ws: Ws, id: string) => eventually(async () => ((await view(ws, id)).finished_at ? view(ws, id) : undefined), 120_000, 'the campaign to end');
const dialled = (phone: string) => app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === phone);

describe('campaigns', () => {
  it('calls a tag audience through the simulator, retries no_answer and busy, skips do-not-call, and counts each outcome exactly', async () => {
    const ws = await callingWorkspace(app);
    const su = await app.request('POST', '/v1/calls/subscriptions', {
      key: ws.apiKey,
      body: { url: `${hooks}/campaigns`, events: ['campaign.started', 'campaign.completed'] },
    });
    expect(su.status).toBe(200);
    receiver.secret = (await webhookSecrets(app.db, ws.workspaceId))!.current;
    const phones = {
      human: phoneEnding('0001'),
      voicemail: phoneEnding('0002'),
      no_answer: phoneEnding('0003'),
      busy: phoneEnding('0004'),
      transferred: phoneEnding('0005'),
      plain: phoneEnding('4321'),
      dnc: phoneEnding('0001'),
    };
    const ids: Record<string, string> = {};
    for (const [k, p] of Object.entries(phones)) ids[k] = await lead(ws, p, 'spring', { first_name: `Ann ${k}` });
    await lead(ws, phoneEnding('0001'), 'other');
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [ws.workspaceId, phones.dnc]);

    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: {
        name: 'Spring',
        agent: ws.agentId,
        audience: { tag: 'spring' },
        window: ANY_TIME,
        max_concurrent: 2,
        retries: { attempts: 1, spacing: 'PT0.001S' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ campaign_id: expect.any(String), status: 'running' });
    const c = await ended(ws, res.body.campaign_id);

    expect(c.status).toBe('completed');
    expect(c.audience_size).toBe(7);
    expect(c.counts).toEqual({
      total: 7,
      pending: 0,
      waiting_for_window: 0,
      dialing: 0,
      human: 2,
      voicemail: 1,
      no_answer: 1,
      busy: 1,
      failed: 0,
      transferred: 1,
      canceled: 0,
      skipped: 1,
      skipped_do_not_call: 1,
      skipped_invalid: 0,
      skipped_deleted: 0,
    });
    // Dialled exactly as often as the rules say, each call once at the provider; the do-not-call lead never.
    const times = Object.fromEntries(Object.entries(phones).map(([k, p]) => [k, dialled(p).length]));
    expect(times).toEqual({ human: 1, voicemail: 1, no_answer: 2, busy: 2, transferred: 1, plain: 1, dnc: 0 });
    for (const p of Object.values(phones)) for (const e of dialled(p)) expect(e.repeatedCreates).toBe(0);

    // Every lead with its calls; a call carries the lead's fields as request_data.
    const page = await app.request('GET', `/v1/campaigns/${c.campaign_id}/calls?limit=4`, { key: ws.apiKey });
    const rest = await app.request('GET', `/v1/campaigns/${c.campaign_id}/calls?cursor=${page.body.next_cursor}`, { key: ws.apiKey });
    const leads = [...page.body.leads, ...rest.body.leads];
    expect(rest.body.next_cursor).toBeNull();
    const byLead: Record<string, any> = Object.fromEntries(leads.map((l: { lead_id: string }) => [l.lead_id, l]));
    expect(byLead[ids.no_answer!]).toMatchObject({
      state: 'done',
      outcome: 'no_answer',
      attempts: 2,
      calls: [
        { attempt: 1, outcome: 'no_answer' },
        { attempt: 2, outcome: 'no_answer' },
      ],
    });
    expect(byLead[ids.dnc!]).toMatchObject({ outcome: 'skipped', skip_reason: 'do_not_call' });
    const callId = byLead[ids.voicemail!].calls[0].call_id;
    const stored = await app.db.one<{ request_data: Record<string, unknown> }>('SELECT request_data FROM calls WHERE id = $1', [callId]);
    expect(stored!.request_data).toMatchObject({ lead_id: ids.voicemail, first_name: 'Ann voicemail' });
    // Searchable by the campaign's id.
    const desc = await app.temporal.client.workflow.getHandle(campaignWorkflowId(c.campaign_id)).describe();
    expect(desc.searchAttributes.CampaignId).toEqual([c.campaign_id]);

    // campaign.started and campaign.completed, signed with the workspace's secret.
    const events = await eventually(
      async () => {
        const got = receiver.on('/campaigns');
        return got.length >= 2 ? got : undefined;
      },
      60_000,
      'both campaign events',
    );
    const bodies = events.map((e) => JSON.parse(e.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['campaign.completed', 'campaign.started']);
    expect(bodies.find((b) => b.type === 'campaign.completed').data.campaign).toMatchObject({
      campaign_id: c.campaign_id,
      status: 'completed',
      counts: { human: 2 },
    });
    expect(events.map((e) => e.eventId).sort()).toEqual([`evt_campaign_${c.campaign_id}_completed`, `evt_campaign_${c.campaign_id}_started`]);
    expect(events.every((e) => e.verified)).toBe(true);
  });

  it("calls an import's leads (audience {import_id}) through the simulator: only those, each once, counted exactly", async () => {
    const ws = await callingWorkspace(app);
    const phones = {
      human: phoneEnding('0001'),
      voicemail: phoneEnding('0002'),
      no_answer: phoneEnding('0003'),
      busy: phoneEnding('0004'),
      transferred: phoneEnding('0005'),
      dnc: phoneEnding('0001'),
    };
    const outsider = phoneEnding('0001');
    await lead(ws, outsider, 'other');
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [ws.workspaceId, phones.dnc]);
    const csv = ['phone,first_name,company', ...Object.entries(phones).map(([k, p]) => `${p},Ann ${k},Acme`), 'not-a-phone,Bob,Acme'].join('\n');
    const imp = await app.request('POST', '/v1/leads/import', { key: ws.apiKey, body: csv, headers: { 'content-type': 'text/csv' } });
    expect(imp.status).toBe(202);
    const done = await eventually(
      async () => {
        const r = await app.request('GET', `/v1/leads/imports/${imp.body.import_id}`, { key: ws.apiKey });
        return r.body.status === 'completed' ? r.body : undefined;
      },
      60_000,
      'the import to finish',
    );
    expect(done.rows).toMatchObject({ read: 7, created: 6, failed: 1 });

    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'Imported', agent: ws.agentId, audience: { import_id: imp.body.import_id }, window: ANY_TIME, max_concurrent: 3 },
    });
    expect(res.status).toBe(200);
    const c = await ended(ws, res.body.campaign_id);
    expect(c).toMatchObject({ status: 'completed', audience_size: 6 });
    expect(c.counts).toEqual({
      total: 6,
      pending: 0,
      waiting_for_window: 0,
      dialing: 0,
      human: 1,
      voicemail: 1,
      no_answer: 1,
      busy: 1,
      failed: 0,
      transferred: 1,
      canceled: 0,
      skipped: 1,
      skipped_do_not_call: 1,
      skipped_invalid: 0,
      skipped_deleted: 0,
    });
    const times = Object.fromEntries(Object.entries(phones).map(([k, p]) => [k, dialled(p).length]));
    expect(times).toEqual({ human: 1, voicemail: 1, no_answer: 1, busy: 1, transferred: 1, dnc: 0 });
    expect(dialled(outsider)).toHaveLength(0);
    // The import's columns reach the call as its request_data.
    const page = await app.request('GET', `/v1/campaigns/${c.campaign_id}/calls`, { key: ws.apiKey });
    const human = page.body.leads.find((l: { outcome: string }) => l.outcome === 'human');
    const stored = await app.db.one<{ request_data: Record<string, unknown> }>('SELECT request_data FROM calls WHERE id = $1', [human.calls[0].call_id]);
    expect(stored!.request_data).toMatchObject({ first_name: 'Ann human', company: 'Acme' });
  });

  it('pauses (calls in progress finish), resumes, cancels (the call in progress hung up), and answers 409 once ended', async () => {
    const ws = await callingWorkspace(app);
    const phones = [phoneEnding('0007'), phoneEnding('0007'), phoneEnding('0007')];
    const leadIds: string[] = [];
    for (const p of phones) leadIds.push(await lead(ws, p, 'silent'));
    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'Quiet', agent: ws.agentId, audience: { lead_ids: leadIds }, window: ANY_TIME, max_concurrent: 1 },
    });
    const id = res.body.campaign_id as string;
    const path = `/v1/campaigns/${id}`;
    await eventually(async () => dialled(phones[0]!).length === 1, 60_000, 'the first call placed');

    expect((await app.request('POST', `${path}/pause`, { key: ws.apiKey })).body).toEqual({ campaign_id: id, status: 'paused' });
    // The call in progress finishes (no callback: provider_timeout after 3 s); nothing new starts while paused.
    await eventually(async () => ((await view(ws, id)).counts.failed === 1 ? true : undefined), 60_000, 'the first call to end');
    expect(await view(ws, id)).toMatchObject({ status: 'paused', counts: { pending: 2, dialing: 0 } });
    expect(dialled(phones[1]!)).toHaveLength(0);

    expect((await app.request('POST', `${path}/resume`, { key: ws.apiKey })).body).toEqual({ campaign_id: id, status: 'running' });
    await eventually(async () => dialled(phones[1]!).length === 1, 60_000, 'the second call placed');
    expect((await app.request('POST', `${path}/cancel`, { key: ws.apiKey })).body).toEqual({ campaign_id: id, status: 'canceled' });
    const c = await ended(ws, id);
    expect(c).toMatchObject({ status: 'canceled', counts: { failed: 1, canceled: 2, pending: 0, dialing: 0 } });
    expect(dialled(phones[1]!)[0]!.status).toBe('canceled');
    expect(dialled(phones[2]!)).toHaveLength(0);

    for (const action of ['pause', 'resume', 'cancel']) {
      const again = await app.request('POST', `${path}/${action}`, { key: ws.apiKey });
      expect([again.status, again.body]).toEqual([409, { status: 'failed', message: 'Campaign already canceled' }]);
    }
  });

  it('calls a lead inside its window while another, outside its own, waits without holding the one place', async () => {
    const ws = await callingWorkspace(app); // the workspace's zone: between 10:00 and 18:00 now
    const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(new Date()));
    const night = Intl.supportedValuesOf('timeZone').find((z) => hour(z) >= 1 && hour(z) < 5)!;
    const sleeper = await lead(ws, phoneEnding('0001'), 'w', { timezone: night });
    const awake = await lead(ws, phoneEnding('0001'), 'w');
    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'Windows', agent: ws.agentId, audience: { lead_ids: [sleeper, awake] }, window: { start: '08:00', end: '20:00' }, max_concurrent: 1 },
    });
    const id = res.body.campaign_id as string;
    const c = await eventually(
      async () => {
        const v = await view(ws, id);
        return v.counts.human === 1 ? v : undefined;
      },
      60_000,
      'the lead in its window called',
    );
    expect(c.counts).toMatchObject({ waiting_for_window: 1, dialing: 0, pending: 0 });
    const waiting = await app.db.one<{ lead_id: string; opens_in_hours: number }>(
      "SELECT lead_id, (extract(epoch FROM next_at - now()) / 3600)::float8 AS opens_in_hours FROM campaign_leads WHERE campaign_id = $1 AND state = 'waiting'",
      [id],
    );
    // 08:00 in the night zone is 3 to 7 hours away.
    expect(waiting!.lead_id).toBe(sleeper);
    expect(waiting!.opens_in_hours).toBeGreaterThan(2.9);
    expect(waiting!.opens_in_hours).toBeLessThan(7.1);
    expect((await app.request('POST', `/v1/campaigns/${id}/cancel`, { key: ws.apiKey })).body.status).toBe('canceled');
    expect((await ended(ws, id)).counts).toMatchObject({ human: 1, canceled: 1, waiting_for_window: 0 });
  });

  it('skips a lead deleted mid-campaign', async () => {
    const ws = await callingWorkspace(app);
    const first = await lead(ws, phoneEnding('0007'), 'x');
    const gone = await lead(ws, phoneEnding('0001'), 'x');
    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'Gone', agent: ws.agentId, audience: { lead_ids: [first, gone] }, window: ANY_TIME, max_concurrent: 1 },
    });
    await eventually(async () => ((await view(ws, res.body.campaign_id)).counts.dialing === 1 ? true : undefined), 60_000, 'the first call in progress');
    await app.db.query('DELETE FROM leads WHERE id = $1', [gone]);
    const c = await ended(ws, res.body.campaign_id);
    expect(c.counts).toMatchObject({ failed: 1, skipped: 1, skipped_deleted: 1, human: 0 });
  });

  it('continues as new every callsPerRun calls, losing no lead and dialling none twice, never over max_concurrent', async () => {
    const ws = await callingWorkspace(app);
    const phones = Array.from({ length: 8 }, () => phoneEnding('4321'));
    const leadIds: string[] = [];
    for (const p of phones) leadIds.push(await lead(ws, p, 'many'));
    const id = randomUUID();
    const input: CampaignRunInput = {
      campaignId: id,
      workspaceId: ws.workspaceId,
      agentId: ws.agentId,
      name: 'Many',
      callsPerRun: 3,
      spec: { audience: { tag: 'many' }, window: ANY_TIME, max_concurrent: 2 },
    };
    const handle = await startWorkflow(app.temporal.client, WORKFLOW.campaignRun, {
      workflowId: campaignWorkflowId(id),
      taskQueue: taskQueue('journeys', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [input],
    });
    const c = await ended(ws, id);
    expect(c.counts).toMatchObject({ total: 8, human: 8, pending: 0, dialing: 0 });
    expect(phones.map((p) => dialled(p).length)).toEqual(phones.map(() => 1));
    // 8 calls, 3 per run: three runs, each history a fraction of one run per lead.
    const runs = [];
    for await (const r of app.temporal.client.workflow.list({ query: `WorkflowId = '${campaignWorkflowId(id)}'` })) runs.push(r);
    expect(runs.length).toBe(3);
    expect((await handle.describe()).runId).not.toBe(handle.firstExecutionRunId);
    // At the provider, never more than two of them at once.
    const spans = app.simulator!.ledger.calls().filter((k) => phones.includes(k.to.replace(/^\+/, '')) && k.parentSid === null);
    const overlap = Math.max(
      ...spans.map((a) => spans.filter((b) => Date.parse(b.createdAt) <= Date.parse(a.createdAt) && Date.parse(b.endedAt!) > Date.parse(a.createdAt)).length),
    );
    expect(overlap).toBeLessThanOrEqual(2);
  });

  it("answers 404 for another workspace's campaign on every route, and for an agent or lead not the workspace's", async () => {
    const ws = await callingWorkspace(app);
    const other = await callingWorkspace(app);
    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'Mine', agent: ws.agentId, audience: { tag: 'nobody' }, start_at: '2099-01-01T00:00:00Z' },
    });
    expect(res.body.status).toBe('scheduled');
    const id = res.body.campaign_id;
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/calls'],
      ['POST', '/pause'],
      ['POST', '/resume'],
      ['POST', '/cancel'],
    ] as const) {
      const r = await app.request(method, `/v1/campaigns/${id}${path}`, { key: other.apiKey });
      expect([path, r.status, r.body]).toEqual([path, 404, { status: 'failed', message: 'Campaign not found' }]);
    }
    expect((await app.request('GET', '/v1/campaigns', { key: other.apiKey })).body.campaigns).toEqual([]);
    const foreignAgent = await app.request('POST', '/v1/campaigns', { key: other.apiKey, body: { name: 'x', agent: ws.agentId, audience: { tag: 'x' } } });
    expect([foreignAgent.status, foreignAgent.body.message]).toEqual([404, 'Agent not found']);
    const mine = await lead(ws, phoneEnding('0001'), 'x');
    const foreignLead = await app.request('POST', '/v1/campaigns', {
      key: other.apiKey,
      body: { name: 'x', agent: other.agentId, audience: { lead_ids: [mine] } },
    });
    expect(foreignLead.status).toBe(404);
    const bad = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: { name: 'x', agent: ws.agentId, audience: { tag: 'x', lead_ids: [randomUUID()] } },
    });
    expect(bad.status).toBe(400);
    expect((await app.request('POST', `/v1/campaigns/${id}/cancel`, { key: ws.apiKey })).body.status).toBe('canceled');
  });
});
