// POST /v1/journeys/{id}/preview: the journey workflow itself, on the preview task queue (recorder activities, a
// virtual clock), answers the steps a lead would take; nothing is written, called or sent.
import { isUuid } from '../../src/core/ids';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { enrollmentRows, importSteps, leadRow } from '../helpers/journeys';
import { replayHistory } from '../helpers/replay-fixtures';
import { startTestApp, type TestApp } from '../helpers/stack';
import { WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(120_000);

let app: TestApp;
const receiver = new WebhookReceiver();
let hookUrl: string;
beforeAll(async () => {
  // The receiver is reachable (allow-listed): a webhook the preview sent would arrive.
  app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  hookUrl = `${await receiver.start()}/hook`;
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

// Monday 1 June 2026, 08:00 in New York (12:00Z); two days later it is Wednesday 08:00 there, before the 09:00 window.
const AT = '2026-06-01T12:00:00Z';
const WEEKDAYS_9_TO_5 = { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] };

async function tenant() {
  const ws = await callingWorkspace(app);
  await app.db.query("UPDATE workspaces SET timezone = 'America/New_York' WHERE id = $1", [ws.workspaceId]);
  const journey = await importSteps(app, ws.workspaceId, [
    { id: 'hello', kind: 'tag', tag: 'previewed' },
    { id: 'nap', kind: 'wait', duration: 'P2D' },
    { id: 'ring', kind: 'call', agent: ws.agentId, window: WEEKDAYS_9_TO_5 },
    {
      id: 'route',
      kind: 'branch',
      cases: [
        { when: { outcome: ['no_answer', 'busy'] }, goto: 'bye' },
        { when: { outcome: 'human' }, goto: 'notify' },
      ],
      else: 'bye',
    },
    { id: 'notify', kind: 'webhook', url: hookUrl },
    { id: 'bye', kind: 'end' },
  ]);
  const newLead = async () => (await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: phoneEnding('0001') } })).body.lead_id as string;
  const preview = (body: unknown, id = journey.id) => app.request('POST', `/v1/journeys/${id}/preview`, { key: ws.apiKey, body });
  return { ...ws, journeyId: journey.id, version: journey.version, newLead, preview };
}

/** Nothing the journey would do happened: no tag, no enrollment, no call row, no webhook. */
async function expectNoSideEffects(t: Awaited<ReturnType<typeof tenant>>, leadId: string) {
  expect((await leadRow(app, t.workspaceId, leadId)).tags).toEqual([]);
  expect(await enrollmentRows(app, leadId)).toEqual([]);
  expect(await app.db.query('SELECT id FROM calls WHERE workspace_id = $1', [t.workspaceId])).toEqual([]);
  expect(receiver.deliveries).toEqual([]);
}

describe('POST /v1/journeys/{id}/preview', () => {
  it('lists the steps with their virtual times (the call waits for its window) and changes nothing', async () => {
    const t = await tenant();
    const lead = await t.newLead();
    const res = await t.preview({ lead_id: lead, at: AT });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'success',
      journey_id: t.journeyId,
      version: t.version,
      lead_id: lead,
      started_at: '2026-06-01T12:00:00.000Z',
      ended_at: '2026-06-03T13:00:00.000Z',
      result: 'completed',
      step_limit_reached: false,
    });
    const steps = res.body.steps as { step: string; kind: string; at: string; action: string; outcome: string; detail: string | null }[];
    expect(steps.map((s) => [s.step, s.action, s.at, s.outcome])).toEqual([
      ['hello', 'add_tag', '2026-06-01T12:00:00.000Z', 'done'],
      ['nap', 'wait', '2026-06-03T12:00:00.000Z', 'done'],
      // Wednesday 08:00 New York: the call waits an hour for its 09:00 window.
      ['ring', 'call', '2026-06-03T13:00:00.000Z', 'human'],
      ['route', 'branch', '2026-06-03T13:00:00.000Z', 'done'],
      ['notify', 'send_webhook', '2026-06-03T13:00:00.000Z', 'delivered'],
      ['bye', 'end', '2026-06-03T13:00:00.000Z', 'done'],
    ]);
    const detail = Object.fromEntries(steps.map((s) => [s.step, s.detail]));
    expect(detail.hello).toBe('not written: would add tag previewed');
    expect(detail.nap).toBe('waits 172800000 ms until 2026-06-03T12:00:00.000Z');
    expect(detail.ring).toMatch(
      /^not placed: would call at 2026-06-03T13:00:00.000Z \(window 09:00-17:00 America\/New_York, waited 3600000 ms for it\); outcome not knowable, assumed human$/,
    );
    expect(detail.route).toBe('goto notify: outcome human held (last outcome human); cases: outcome no_answer|busy → bye; outcome human → notify; else → bye');
    expect(detail.notify).toMatch(/^not sent: would POST to http:\/\/127\.0\.0\.1:\d+\/hook /);
    await expectNoSideEffects(t, lead);
    // The journey workflow itself ran: no timer (the waits were virtual), no child (no call), and it replays.
    const workflowId = res.body.workflow_id as string;
    expect(workflowId.startsWith('journey-preview:') && isUuid(workflowId.slice('journey-preview:'.length))).toBe(true);
    expect(res.headers.get('switchboard-workflow-id')).toBe(workflowId);
    expect(res.headers.get('link')).toContain(`/workflows/${encodeURIComponent(workflowId)}>; rel="workflow"`);
    const history = await app.temporal.client.workflow.getHandle(workflowId).fetchHistory();
    expect(history.events!.find((e) => e.workflowExecutionStartedEventAttributes)?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe(
      'journeyEnrollment',
    );
    expect(history.events!.filter((e) => e.timerStartedEventAttributes || e.startChildWorkflowExecutionInitiatedEventAttributes)).toEqual([]);
    await expect(replayHistory({ workflowId, history: {} }, history)).resolves.toBeUndefined();
  });

  it('says a lead on the do-not-call list is skipped', async () => {
    const t = await tenant();
    const lead = await t.newLead();
    const { phone } = await leadRow(app, t.workspaceId, lead);
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [t.workspaceId, phone]);
    const res = await t.preview({ lead_id: lead, at: AT });
    expect(res.status).toBe(200);
    const ring = (res.body.steps as { step: string }[]).find((s) => s.step === 'ring');
    expect(ring).toEqual({
      step: 'ring',
      kind: 'call',
      at: '2026-06-03T12:00:00.000Z',
      action: 'skip',
      outcome: 'skipped',
      detail: 'dnc: the phone is on the do-not-call list, no call',
    });
    // skipped is neither human nor no_answer/busy: the branch takes its else.
    expect((res.body.steps as { step: string }[]).map((s) => s.step)).toEqual(['hello', 'nap', 'ring', 'route', 'bye']);
    await expectNoSideEffects(t, lead);
  });

  it('waits for a wait-until window in the lead zone, says which branch case held, and runs no automation, update or trigger', async () => {
    const ws = await app.newWorkspace();
    const base = hookUrl.replace(/\/hook$/, '');
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'office', kind: 'wait', until: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' } },
      { id: 'which', kind: 'branch', cases: [{ when: { field: 'company', equals: 'Initech' }, goto: 'crm' }], else: 'bye' },
      { id: 'crm', kind: 'automation', automationType: 'proxy', action: 'request', params: { apiMethod: 'POST', apiURL: `${base}/crm` } },
      { id: 'note', kind: 'update_lead', fields: { company: 'Initech (synced)' } },
      { id: 'handoff', kind: 'trigger' },
      { id: 'bye', kind: 'end' },
    ]);
    const created = await app.request('POST', '/v1/lead/create', {
      key: ws.apiKey,
      body: { phone: phoneEnding('0001'), company: 'Initech', timezone: 'Europe/Berlin' },
    });
    const lead = created.body.lead_id as string;
    const hook = { journey_id: journey.id, automation_node_id: 'handoff', webhook_url: `${base}/trigger` };
    expect((await app.request('POST', '/v1/hooks', { key: ws.apiKey, body: hook })).status).toBe(200);
    // Saturday 6 June 2026, 14:00 in Berlin: the window opens on Monday at 09:00 there (07:00Z).
    const res = await app.request('POST', `/v1/journeys/${journey.id}/preview`, { key: ws.apiKey, body: { lead_id: lead, at: '2026-06-06T12:00:00Z' } });
    expect(res.status).toBe(200);
    const steps = res.body.steps as { step: string; at: string; action: string; outcome: string; detail: string | null }[];
    expect(steps.map((s) => [s.step, s.action, s.at, s.outcome, s.detail])).toEqual([
      ['office', 'wait', '2026-06-08T07:00:00.000Z', 'done', 'waits 154800000 ms until 2026-06-08T07:00:00.000Z (window 09:00-17:00 Europe/Berlin)'],
      ['which', 'branch', '2026-06-08T07:00:00.000Z', 'done', 'goto crm: company = "Initech" held; cases: company = "Initech" → crm; else → bye'],
      ['crm', 'run_automation', '2026-06-08T07:00:00.000Z', 'done', 'not run: would run proxy request; outcome not knowable, assumed done'],
      ['note', 'update_lead', '2026-06-08T07:00:00.000Z', 'done', 'not written: would set company'],
      ['handoff', 'send_trigger', '2026-06-08T07:00:00.000Z', 'done', expect.stringMatching(/^not sent: would deliver event \S+ to 1 subscriber\(s\)$/)],
      ['bye', 'end', '2026-06-08T07:00:00.000Z', 'done', null],
    ]);
    const after = await leadRow(app, ws.workspaceId, lead);
    expect([after.company, after.tags]).toEqual(['Initech', []]);
    expect(await enrollmentRows(app, lead)).toEqual([]);
    expect(await app.db.query('SELECT event_id FROM journey_trigger_events WHERE workspace_id = $1', [ws.workspaceId])).toEqual([]);
    expect(receiver.deliveries).toEqual([]);
  });

  it('says a webhook to an address the send would refuse fails, without a request', async () => {
    const ws = await app.newWorkspace();
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'notify', kind: 'webhook', url: 'http://10.1.2.3/hook' },
      { id: 'bye', kind: 'end' },
    ]);
    const res = await app.request('POST', `/v1/journeys/${journey.id}/preview`, { key: ws.apiKey, body: { record: { phone: phoneEnding('0001') } } });
    expect(res.status).toBe(200);
    expect(res.body.steps[0]).toMatchObject({ step: 'notify', action: 'send_webhook', outcome: 'failed' });
    expect(res.body.steps[0].detail).toMatch(/^ssrf_blocked: blocked: 10\.1\.2\.3 is a private or loopback address/);
  });

  it('stops a journey that loops after 100 steps and says so', async () => {
    const ws = await app.newWorkspace();
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'hourly', kind: 'wait', duration: 'PT1H' },
      { id: 'again', kind: 'goto', target: 'hourly' },
    ]);
    const res = await app.request('POST', `/v1/journeys/${journey.id}/preview`, { key: ws.apiKey, body: { record: { phone: phoneEnding('0001') }, at: AT } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ step_limit_reached: true, ended_at: '2026-06-03T14:00:00.000Z' });
    expect(res.body.steps).toHaveLength(100);
  });

  it('previews a record that is not stored', async () => {
    const t = await tenant();
    const phone = phoneEnding('0001');
    const res = await t.preview({ record: { phone, first_name: 'Ada', timezone: 'America/Los_Angeles' }, at: AT });
    expect(res.status).toBe(200);
    expect(res.body.lead_id).toBeNull();
    // Wednesday 05:00 in Los Angeles: the 09:00 window there opens four hours later.
    expect((res.body.steps as { step: string; at: string }[]).find((s) => s.step === 'ring')?.at).toBe('2026-06-03T16:00:00.000Z');
    expect(await app.db.query('SELECT id FROM leads WHERE workspace_id = $1', [t.workspaceId])).toEqual([]);
    expect(receiver.deliveries).toEqual([]);
  });

  it('answers 404 for an unknown journey or lead and 400 for bad input, in the spec shape', async () => {
    const t = await tenant();
    const lead = await t.newLead();
    const other = await app.newWorkspace();
    const cases: [unknown, number, string | RegExp, string?][] = [
      [{ lead_id: lead }, 404, 'Journey not found', '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11'],
      [{ lead_id: lead }, 404, 'Journey not found', 'not-a-uuid'],
      [{ lead_id: '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11' }, 404, 'Lead not found'],
      [{}, 400, 'record, lead_id: provide exactly one of them'],
      [{ lead_id: lead, record: { phone: phoneEnding('0001') } }, 400, 'record, lead_id: provide exactly one of them'],
      [{ lead_id: lead, at: 'tomorrow' }, 400, /^at: /],
      [{ record: { first_name: 'Ada' } }, 400, /^record\.phone: /],
      [{ lead_id: lead, extra: 1 }, 400, /extra/],
    ];
    for (const [body, status, message, id] of cases) {
      const res = await t.preview(body, id);
      expect([res.status, res.body]).toEqual([status, { status: 'failed', message: typeof message === 'string' ? message : expect.stringMatching(message) }]);
    }
    // Another workspace's journey is not found; without a key the route is refused like every journeys route.
    expect((await app.request('POST', `/v1/journeys/${t.journeyId}/preview`, { key: other.apiKey, body: { lead_id: lead } })).status).toBe(404);
    expect((await app.request('POST', `/v1/journeys/${t.journeyId}/preview`, { body: { lead_id: lead } })).status).toBe(401);
    await expectNoSideEffects(t, lead);
  });
});
