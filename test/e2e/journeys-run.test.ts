// Journeys through the api on the real Temporal dev server. Nothing here waits for a workflow timer: a run is kept
// at a step by a held webhook, or by a wait of days that an unenroll ends; waits that elapse (their duration, a branch
// after one, every step kind, a lead deleted mid-wait) run on the time-skipping server in journeys-time.test.ts.
import { addTag, defineCustomField } from '../../src/leads/db/leads';
import { enrollmentWorkflowId } from '../../src/temporal/ids';
import { SA } from '../../src/temporal/search-attributes';
import { taskQueue } from '../../src/temporal/task-queues';
import { journeyEnrollment } from '../../workflows/journeys/journey';
import { enrollSignal, type JourneyState } from '../../workflows/journeys/journey-messages';
import { enrollmentRows, finished, importSteps, leadRow, newPhone, rowsWhen, runOf, stateOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, verifySignature, WebhookReceiver } from '../helpers/webhook-receiver';

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
beforeAll(async () => {
  app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  hooks = await receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

async function tenant(steps: unknown[], opts: { timezone?: string } = {}) {
  const ws = await app.newWorkspace({ superuser: true });
  if (opts.timezone) await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, opts.timezone]);
  const journey = await importSteps(app, ws.workspaceId, steps);
  const enroll = async (record: Record<string, unknown> = {}) => {
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', {
      key: ws.apiKey,
      body: { workflow_id: journey.id, record: { phone: newPhone(), ...record } },
    });
    expect(res.status).toBe(200);
    return res.body.lead_id as string;
  };
  return { ...ws, journeyId: journey.id, enroll };
}

const steps = (s: JourneyState) => s.history.map((h) => `${h.step_id}:${h.outcome}${h.detail ? ` (${h.detail})` : ''}`);

describe('a journey that branches and waits', () => {
  const journey = [
    { id: 'start', kind: 'tag', tag: 'started' },
    { id: 'which', kind: 'branch', cases: [{ when: { has_tag: 'vip' }, goto: 'vip' }], else: 'standard' },
    { id: 'standard', kind: 'tag', tag: 'standard_path' },
    { id: 'skip_vip', kind: 'goto', target: 'done' },
    { id: 'vip', kind: 'tag', tag: 'vip_path' },
    { id: 'done', kind: 'end' },
  ];

  it('runs each lead down its branch, and records it in Postgres and the query', async () => {
    const t = await tenant(journey);
    const plain = await t.enroll();
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body: { workflow_id: t.journeyId, record: { phone: newPhone() } } });
    await finished(app, t.journeyId, res.body.lead_id);
    await addTag(app.db, t.workspaceId, res.body.lead_id, 'vip');
    // A second run, after the first ended; this time the lead is a vip.
    await app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body: { workflow_id: t.journeyId, lead_id: res.body.lead_id } });
    await rowsWhen(app, res.body.lead_id, (rows) => rows.length === 2 && rows[1]!.status === 'completed', 'the vip run to end');
    const vipRun = await stateOf(app, t.journeyId, res.body.lead_id);
    const plainRun = await finished(app, t.journeyId, plain);

    expect(steps(plainRun)).toEqual(['start:done', 'which:done (goto standard)', 'standard:done', 'skip_vip:done (goto done)', 'done:done']);
    expect(steps(vipRun)).toEqual(['start:done', 'which:done (goto vip)', 'vip:done', 'done:done']);
    expect((await leadRow(app, t.workspaceId, plain)).tags).toEqual(['started', 'standard_path']);
    expect((await leadRow(app, t.workspaceId, res.body.lead_id)).tags).toEqual(['started', 'standard_path', 'vip', 'vip_path']);
    expect(await enrollmentRows(app, plain)).toMatchObject([{ status: 'completed', current_step: 'done', journey_version: 1 }]);
    const described = await runOf(app, t.journeyId, plain).describe();
    expect(described.typedSearchAttributes.get(SA.Outcome)).toBe('completed');
    expect(described.typedSearchAttributes.get(SA.LeadId)).toBe(plain);
  });

  it('answers the query while waiting, and stops on the unenroll signal', async () => {
    const t = await tenant([
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'nap', kind: 'wait', duration: 'P2D' },
      { id: 'late', kind: 'tag', tag: 'late' },
    ]);
    const lead = await t.enroll();
    const waiting = await eventually(async () => {
      const s = await stateOf(app, t.journeyId, lead);
      return s.current_step === 'nap' && s;
    });
    expect(waiting).toMatchObject({
      status: 'active',
      version: 1,
      last_outcome: 'done',
      history: [{ seq: 1, step_id: 'start', kind: 'tag', outcome: 'done' }],
    });
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the row at the wait');

    await runOf(app, t.journeyId, lead).signal('unenroll', { reason: 'asked to stop' });
    const end = await finished(app, t.journeyId, lead);
    expect(end).toMatchObject({ status: 'unenrolled', current_step: 'nap' });
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'unenrolled', current_step: 'nap', detail: 'asked to stop' }]);
    expect((await leadRow(app, t.workspaceId, lead)).tags).toEqual(['started']);
    expect((await runOf(app, t.journeyId, lead).describe()).typedSearchAttributes.get(SA.Outcome)).toBe('unenrolled');
  });

  it('POST /v1/lead/unenroll stops an open run through the api, once, and only in its own workspace', async () => {
    const t = await tenant([
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'nap', kind: 'wait', duration: 'P2D' },
      { id: 'late', kind: 'tag', tag: 'late' },
    ]);
    const lead = await t.enroll();
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the run asleep');
    const other = await app.newWorkspace();
    const body = { workflow_id: t.journeyId, lead_id: lead, reason: 'opted out' };
    expect(await app.request('POST', '/v1/lead/unenroll', { key: other.apiKey, body })).toMatchObject({
      status: 404,
      body: { status: 'failed', message: 'Workflow not found' },
    });
    const res = await app.request('POST', '/v1/lead/unenroll', { key: t.apiKey, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', lead_id: lead, workflow_id: t.journeyId, message: 'Lead removed from workflow' });
    expect(await finished(app, t.journeyId, lead)).toMatchObject({ status: 'unenrolled', current_step: 'nap' });
    await rowsWhen(app, lead, (rows) => rows[0]?.status === 'unenrolled', 'the row unenrolled');
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'unenrolled', detail: 'opted out' }]);
    expect(await app.request('POST', '/v1/lead/unenroll', { key: t.apiKey, body })).toMatchObject({
      status: 404,
      body: { status: 'failed', message: 'Lead is not active in this workflow' },
    });
    const unknownLead = { ...body, lead_id: '00000000-0000-4000-8000-000000000000' };
    expect((await app.request('POST', '/v1/lead/unenroll', { key: t.apiKey, body: unknownLead })).body).toEqual({
      status: 'failed',
      message: 'Lead not found',
    });
    expect((await app.request('POST', '/v1/lead/unenroll', { key: t.apiKey, body: { lead_id: lead } })).status).toBe(400);
  });

  it('an enrollment that reaches a run after it decided to end starts the journey over (nothing lost)', async () => {
    const t = await tenant([
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'nap', kind: 'wait', duration: 'P1D' },
      { id: 'stop', kind: 'end' },
    ]);
    const lead = await t.enroll();
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the run asleep');
    const handle = runOf(app, t.journeyId, lead);
    await handle.signal('unenroll');
    await handle.signal(enrollSignal, { version: 1 }); // what the api sends when a start joins an open run
    const rows = await rowsWhen(app, lead, (r) => r.length === 2 && r[1]!.current_step === 'nap', 'a second enrollment');
    expect(rows.map((r) => r.status)).toEqual(['unenrolled', 'active']);
    const second = await stateOf(app, t.journeyId, lead);
    expect(second.enrollment_id).toBe(rows[1]!.id);
    expect(second.history.map((h) => h.step_id)).toEqual(['start']);
    await handle.signal('unenroll');
  });
});

describe('versions', () => {
  it('a running enrollment keeps its version; a new one runs the latest', async () => {
    // The early run is held at its webhook step (its answer withheld) until the late one has ended.
    receiver.hold('/versions/held');
    const t = await tenant([
      { id: 'a', kind: 'tag', tag: 'v1_start' },
      { id: 'w', kind: 'webhook', url: `${hooks}/versions/held` },
      { id: 'b', kind: 'tag', tag: 'v1_end' },
    ]);
    const early = await t.enroll();
    await eventually(async () => receiver.heldCount('/versions/held') === 1, 30_000, 'the early run at its webhook');
    const v2 = await importSteps(
      app,
      t.workspaceId,
      [
        { id: 'a', kind: 'tag', tag: 'v2_start' },
        { id: 'b', kind: 'tag', tag: 'v2_end' },
      ],
      t.journeyId,
    );
    expect(v2.version).toBe(2);
    const late = await t.enroll();
    expect((await finished(app, t.journeyId, late)).version).toBe(2);
    expect((await stateOf(app, t.journeyId, early)).current_step).toBe('w');
    receiver.release('/versions/held');
    expect((await finished(app, t.journeyId, early)).version).toBe(1);
    expect((await leadRow(app, t.workspaceId, early)).tags).toEqual(['v1_start', 'v1_end']);
    expect((await leadRow(app, t.workspaceId, late)).tags).toEqual(['v2_start', 'v2_end']);
    expect((await enrollmentRows(app, early))[0]!.journey_version).toBe(1);
    expect((await enrollmentRows(app, late))[0]!.journey_version).toBe(2);
  });
});

describe('webhooks', () => {
  // A retry after a 500 (same event id, the receiver processing it once) waits out the retry's backoff: journeys-time.test.ts.
  it('signs each delivery with an event id of its own, and renders the payload template', async () => {
    const t = await tenant([
      { id: 'notify', kind: 'webhook', url: `${hooks}/templated`, payload: { text: 'Hello {{lead.first_name}}', lead: '{{lead_id}}', event: '{{event_id}}' } },
      { id: 'plain', kind: 'webhook', url: `${hooks}/plain` },
      { id: 'stop', kind: 'end' },
    ]);
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: t.superuserKey })).body.webhook_secret;
    expect(receiver.secret).toMatch(/^whsec_/);
    const lead = await t.enroll({ first_name: 'Ada' });
    const end = await finished(app, t.journeyId, lead);
    expect(steps(end).map((s) => s.replace(/ \(.*/, ''))).toEqual(['notify:delivered', 'plain:delivered', 'stop:done']);

    const templated = receiver.on('/templated');
    expect(templated.map((d) => [d.status, d.verified])).toEqual([[200, true]]);
    expect(JSON.parse(templated[0]!.body)).toEqual({ text: 'Hello Ada', lead, event: templated[0]!.eventId });
    const plain = receiver.on('/plain');
    expect(plain.map((d) => [d.status, d.verified])).toEqual([[200, true]]);
    expect(JSON.parse(plain[0]!.body)).toMatchObject({
      id: plain[0]!.eventId,
      type: 'journey.webhook',
      journey_id: t.journeyId,
      lead_id: lead,
      step_id: 'plain',
      lead: { first_name: 'Ada' },
    });
    expect(receiver.processed.filter((id) => id === templated[0]!.eventId || id === plain[0]!.eventId)).toHaveLength(2);
    expect(plain[0]!.eventId).not.toBe(templated[0]!.eventId);
  });

  it('after a secret rotation, signs with the new and the previous secret during the grace period only', async () => {
    const t = await tenant([
      { id: 'hook', kind: 'webhook', url: `${hooks}/rotated` },
      { id: 'stop', kind: 'end' },
    ]);
    const rotate = async (grace: number) =>
      (await app.request('POST', '/v1/journeys/webhook-secret/rotate', { key: t.superuserKey, body: { grace_period_seconds: grace } })).body;
    const original = (await app.request('GET', '/v1/journeys/webhook-secret', { key: t.superuserKey })).body.webhook_secret as string;
    const first = await rotate(3600);
    expect(first.previous_webhook_secret).toBe(original);
    await finished(app, t.journeyId, await t.enroll());
    const during = receiver.on('/rotated').at(-1)!;
    expect(during.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifySignature(original, during.signature, during.body)).toBe(true);
    expect(verifySignature(first.webhook_secret, during.signature, during.body)).toBe(true);

    const second = await rotate(0);
    expect(second.previous_webhook_secret).toBeNull();
    await finished(app, t.journeyId, await t.enroll());
    const after = receiver.on('/rotated').at(-1)!;
    expect(after.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(second.webhook_secret, after.signature, after.body)).toBe(true);
    for (const old of [original, first.webhook_secret]) expect(verifySignature(old, after.signature, after.body)).toBe(false);
  });

  it('treats a 4xx as final (one attempt, outcome failed) and can branch on it; blocks link-local targets', async () => {
    const t = await tenant([
      { id: 'hook', kind: 'webhook', url: `${hooks}/gone` },
      { id: 'check', kind: 'branch', cases: [{ when: { outcome: 'failed' }, goto: 'fallback' }], else: 'stop' },
      { id: 'fallback', kind: 'tag', tag: 'webhook_failed' },
      { id: 'metadata', kind: 'webhook', url: 'http://169.254.169.254/latest/meta-data' },
      { id: 'stop', kind: 'end' },
    ]);
    receiver.script('/gone', [410]);
    const lead = await t.enroll();
    const end = await finished(app, t.journeyId, lead);
    expect(steps(end)).toEqual([
      'hook:failed (webhook_rejected: HTTP 410)',
      'check:done (goto fallback)',
      'fallback:done',
      expect.stringMatching(/^metadata:failed \(ssrf_blocked: blocked: 169\.254\.169\.254 is a reserved/),
      'stop:done',
    ]);
    expect(receiver.on('/gone')).toHaveLength(1);
    expect((await leadRow(app, t.workspaceId, lead)).tags).toEqual(['webhook_failed']);
  });
});

describe('steps whose runtime comes later, the do-not-call list, lead updates', () => {
  it('skips a call to a lead on the do-not-call list (dnc), fails one by an agent the workspace lacks, runs automation steps, and goes on', async () => {
    const t = await tenant([
      { id: 'ring', kind: 'call', agent_id: '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11' },
      { id: 'crm', kind: 'automation', automationType: 'hubspot', action: 'create_contact', params: {} },
      { id: 'after', kind: 'tag', tag: 'after' },
    ]);
    const blocked = await t.enroll();
    const open = await t.enroll();
    const dncLead = await leadRow(app, t.workspaceId, blocked);
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [t.workspaceId, dncLead.phone]);
    // The first lead may have passed its call step before the list changed: enroll it again once that run ended.
    await finished(app, t.journeyId, blocked);
    await app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body: { workflow_id: t.journeyId, lead_id: blocked } });
    await rowsWhen(app, blocked, (rows) => rows.length === 2 && rows[1]!.status === 'completed', 'the second run');
    // The automation step runs (test/e2e/automation-journey.test.ts); with no HubSpot connection it fails and the journey goes on.
    const connect = `npx switchboard connection create --workspace ${t.workspaceId} --integration hubspot --kind oauth2 --secret access_token=…`;
    const crm = `crm:failed (not_connected: HubSpot is not connected for this workspace: connect it first (${connect}))`;
    expect(steps(await stateOf(app, t.journeyId, blocked))).toEqual(['ring:skipped (dnc)', crm, 'after:done']);
    expect(steps(await finished(app, t.journeyId, open))).toEqual([
      'ring:failed (unknown_agent: the workspace has no agent 6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11)',
      crm,
      'after:done',
    ]);
  });

  it('update_lead sets standard and defined custom fields, and branches see them', async () => {
    const t = await tenant([
      { id: 'set', kind: 'update_lead', fields: { company: 'Acme', plan: 'gold', shoe_size: '42' } },
      { id: 'is_acme', kind: 'branch', cases: [{ when: { field: 'plan', equals: 'gold' }, goto: 'gold' }], else: 'stop' },
      { id: 'gold', kind: 'tag', tag: 'gold' },
      { id: 'stop', kind: 'end' },
    ]);
    await defineCustomField(app.db, t.workspaceId, 'plan');
    const lead = await t.enroll({ company: 'Old' });
    expect(steps(await finished(app, t.journeyId, lead))).toEqual([
      'set:done (ignored fields: shoe_size)',
      'is_acme:done (goto gold)',
      'gold:done',
      'stop:done',
    ]);
    expect(await leadRow(app, t.workspaceId, lead)).toMatchObject({ company: 'Acme', custom_fields: { plan: 'gold' }, tags: ['gold'] });
  });

  it('fails the enrollment when its lead is deleted, during a step or before the run recorded itself', async () => {
    // The run is held at its webhook step (its answer withheld) while the lead is deleted; during a wait: journeys-time.test.ts.
    receiver.hold('/deleted/held');
    const t = await tenant([
      { id: 'w', kind: 'webhook', url: `${hooks}/deleted/held` },
      { id: 'tag', kind: 'tag', tag: 'x' },
    ]);
    const lead = await t.enroll();
    await eventually(async () => receiver.heldCount('/deleted/held') === 1, 30_000, 'the run at its webhook');
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'w', 'the run recorded');
    await app.db.query('DELETE FROM leads WHERE id = $1', [lead]);
    receiver.release('/deleted/held');
    expect(await finished(app, t.journeyId, lead)).toMatchObject({ status: 'failed', current_step: 'tag' });

    const early = await t.enroll();
    await app.db.query('DELETE FROM leads WHERE id = $1', [early]);
    expect((await finished(app, t.journeyId, early)).status).toBe('failed');
  });
});

describe('continue-as-new', () => {
  it('carries position, last outcome and history into the next run, and finishes every step once', async () => {
    const t = await tenant([{ id: 'x', kind: 'end' }]);
    const leadId = (await app.request('POST', '/v1/lead/create', { key: t.apiKey, body: { phone: newPhone() } })).body.lead_id as string;
    const journey = ['a', 'b', 'c', 'd', 'e'].map((tag) => ({ id: tag, kind: 'tag' as const, tag }));
    const handle = await app.temporal.client.workflow.start(journeyEnrollment, {
      taskQueue: taskQueue('journeys', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      workflowId: enrollmentWorkflowId(t.journeyId, leadId),
      args: [{ workspaceId: t.workspaceId, journeyId: t.journeyId, leadId, version: 1, steps: journey, maxStepsPerRun: 2 }],
      typedSearchAttributes: [
        { key: SA.JourneyId, value: t.journeyId },
        { key: SA.LeadId, value: leadId },
      ],
    });
    const end = await handle.result();
    expect(end.history.map((h) => [h.seq, h.step_id])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
    expect(end.status).toBe('completed');
    const last = await handle.describe();
    expect(last.runId).not.toBe(handle.firstExecutionRunId);
    expect(last.typedSearchAttributes.get(SA.JourneyId)).toBe(t.journeyId); // operators still find the later runs
    expect((await leadRow(app, t.workspaceId, leadId)).tags).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await enrollmentRows(app, leadId)).toMatchObject([{ status: 'completed', run_id: last.runId }]);
  });
});

describe('the work of a run', () => {
  it('reads and writes its enrollment row in local activities; a step that writes the lead is an activity task', async () => {
    const t = await tenant([
      { id: 'mark', kind: 'tag', tag: 'worked' },
      { id: 'stop', kind: 'end' },
    ]);
    const lead = await t.enroll();
    expect((await finished(app, t.journeyId, lead)).status).toBe('completed');
    const events = (await app.temporal.client.workflow.getHandle(enrollmentWorkflowId(t.journeyId, lead)).fetchHistory()).events ?? [];
    const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name] : []));
    const local = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    // journeyStarted and journeyFinished ran locally (each an activity task and a workflow task through the server before).
    expect(scheduled).toEqual(['journeyTag']);
    expect(local).toHaveLength(2);
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'completed', current_step: 'stop' }]);
  });
});
