import { defineCustomField } from '../../src/leads/db/leads';
import { enrollmentRows, finished, importSteps, leadRow, newPhone, rowsWhen, runOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true });
});
afterAll(() => app.close());

const SUCCESS = { status: 'success', workflow_assigned: true, message: 'Lead successfully added to workflow' };
const ALREADY = { status: 'success', workflow_assigned: false, message: 'Lead is already in this workflow: not added again' };
const LEAD_FAILED = { status: 'failed', message: 'Could not find or create lead' };
const NOT_FOUND = { status: 'failed', message: 'Workflow not found' };
const quick = [
  { id: 'hello', kind: 'tag', tag: 'enrolled' },
  { id: 'stop', kind: 'end' },
];
// Asleep for a day, not a minute: a loaded machine answering 1,000 enrollments slowly must not see the run end (each
// test unenrolls its lead when done).
const slow = [
  { id: 'hello', kind: 'tag', tag: 'enrolled' },
  { id: 'nap', kind: 'wait', duration: 'P1D' },
  { id: 'stop', kind: 'end' },
];

async function tenant(steps: unknown[] = quick) {
  const ws = await app.newWorkspace();
  const journey = await importSteps(app, ws.workspaceId, steps);
  const send = (body: unknown, method = 'POST') => app.request(method, '/v1/lead/sendtoworkflow', { key: ws.apiKey, body });
  return { ...ws, journeyId: journey.id, send };
}

describe('POST /v1/lead/sendtoworkflow: the four rules', () => {
  it('rule 1: exactly one of record and lead_id (400 otherwise)', async () => {
    const t = await tenant();
    for (const body of [
      { workflow_id: t.journeyId },
      { workflow_id: t.journeyId, record: { phone: newPhone() }, lead_id: '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11' },
    ]) {
      const res = await t.send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'failed', message: 'record, lead_id: provide exactly one of them' });
    }
    expect((await t.send({ record: { phone: newPhone() } })).body).toEqual({ status: 'failed', message: 'workflow_id: required' });
  });

  it('rules 2–3: no lead with record.phone → one is created from record and enrolled', async () => {
    const t = await tenant();
    const phone = newPhone();
    const res = await t.send({
      workflow_id: t.journeyId,
      record: { phone, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', company: 'Engines' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...SUCCESS, lead_id: expect.any(String) });
    const lead = await leadRow(app, t.workspaceId, res.body.lead_id);
    expect(lead).toMatchObject({ phone: `1${phone}`, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', company: 'Engines' });
    const done = await finished(app, t.journeyId, lead.id);
    expect(done.status).toBe('completed');
    expect((await leadRow(app, t.workspaceId, lead.id)).tags).toEqual(['enrolled']);
  });

  it('rule 4: a lead matched by phone (any format) is enrolled as on file; the other fields are ignored', async () => {
    const t = await tenant(slow);
    const phone = newPhone();
    const first = await t.send({ workflow_id: t.journeyId, record: { phone, first_name: 'Ada' } });
    const again = await t.send({
      workflow_id: t.journeyId,
      record: { phone: `+1 (${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, first_name: 'Eve', email: 'not an email' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ALREADY, lead_id: first.body.lead_id });
    const lead = await leadRow(app, t.workspaceId, first.body.lead_id);
    expect(lead.first_name).toBe('Ada');
    expect(lead.email).toBeNull();
    await runOf(app, t.journeyId, lead.id).signal('unenroll');
  });

  it('rule 4 by lead_id: enrolls the lead on file', async () => {
    const t = await tenant();
    const created = await t.send({ workflow_id: t.journeyId, record: { phone: newPhone() } });
    await finished(app, t.journeyId, created.body.lead_id);
    const res = await t.send({ workflow_id: t.journeyId, lead_id: created.body.lead_id });
    expect(res.body).toEqual({ ...SUCCESS, lead_id: created.body.lead_id });
    await rowsWhen(app, created.body.lead_id, (rows) => rows.length === 2 && rows.every((r) => r.status === 'completed'), 'two completed runs');
  });

  it('keeps custom fields the workspace defines and reports the others as ignored_fields', async () => {
    const t = await tenant();
    await defineCustomField(app.db, t.workspaceId, 'plan');
    const res = await t.send({ workflow_id: t.journeyId, record: { phone: newPhone(), plan: 'pro', shoe_size: 42 } });
    expect(res.body).toEqual({ ...SUCCESS, lead_id: expect.any(String), ignored_fields: ['shoe_size'] });
    expect((await leadRow(app, t.workspaceId, res.body.lead_id)).custom_fields).toEqual({ plan: 'pro' });
  });

  it('404 "Workflow not found" for an unknown journey, a malformed id and another workspace\'s journey', async () => {
    const t = await tenant();
    const other = await tenant();
    for (const workflow_id of ['6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11', 'not-a-uuid', other.journeyId]) {
      const res = await t.send({ workflow_id, record: { phone: newPhone() } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  it('404 "Could not find or create lead" for an unknown, malformed or other workspace\'s lead_id', async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await other.send({ workflow_id: other.journeyId, record: { phone: newPhone() } });
    for (const lead_id of ['6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11', 'nope', theirs.body.lead_id]) {
      const res = await t.send({ workflow_id: t.journeyId, lead_id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(LEAD_FAILED);
    }
    await rowsWhen(app, theirs.body.lead_id, (rows) => rows.length === 1, 'their one enrollment');
    expect(await enrollmentRows(app, theirs.body.lead_id)).toHaveLength(1);
  });

  it('400 "Could not find or create lead" for a record without a usable phone', async () => {
    const t = await tenant();
    for (const record of [{}, { first_name: 'Ada' }, { phone: '' }, { phone: '12' }, { phone: 'call me' }, { phone: true }]) {
      const res = await t.send({ workflow_id: t.journeyId, record });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(LEAD_FAILED);
    }
    expect(await app.db.query('SELECT 1 FROM leads WHERE workspace_id = $1', [t.workspaceId])).toHaveLength(0);
  });

  it('reads a national number in the workspace region', async () => {
    const ws = await app.newWorkspace({ defaultRegion: 'GB' });
    const journey = await importSteps(app, ws.workspaceId, quick);
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, record: { phone: '020 7946 0018' } } });
    expect(res.status).toBe(200);
    expect((await leadRow(app, ws.workspaceId, res.body.lead_id)).phone).toBe('442079460018');
  });
});

describe('one run per lead and journey', () => {
  it('enrolling a lead already active returns success without a second run; after it ended, it can run again', async () => {
    const t = await tenant(slow);
    const first = await t.send({ workflow_id: t.journeyId, record: { phone: newPhone() } });
    const leadId = first.body.lead_id;
    const run1 = (await runOf(app, t.journeyId, leadId).describe()).runId;
    const again = await t.send({ workflow_id: t.journeyId, lead_id: leadId });
    expect(again.body).toEqual({ ...ALREADY, lead_id: leadId });
    expect((await runOf(app, t.journeyId, leadId).describe()).runId).toBe(run1);
    expect(await rowsWhen(app, leadId, (rows) => rows.length === 1, 'one row')).toMatchObject([{ status: 'active', run_id: run1 }]);

    await runOf(app, t.journeyId, leadId).signal('unenroll');
    await rowsWhen(app, leadId, (rows) => rows[0]?.status === 'unenrolled', 'unenrolled');
    expect((await t.send({ workflow_id: t.journeyId, lead_id: leadId })).body).toEqual({ ...SUCCESS, lead_id: leadId });
    const rows = await rowsWhen(app, leadId, (r) => r.length === 2, 'a second run');
    expect(rows.map((r) => r.status)).toEqual(['unenrolled', 'active']);
    expect(rows[1]!.run_id).not.toBe(run1);
    await runOf(app, t.journeyId, leadId).signal('unenroll');
  });

  it('replays a retried request with the same Idempotency-Key instead of running it again', async () => {
    const t = await tenant(slow);
    const body = { workflow_id: t.journeyId, record: { phone: newPhone(), first_name: 'Once' } };
    const headers = { 'idempotency-key': 'enroll-once-1' };
    const first = await app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body, headers });
    const retry = await app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await rowsWhen(app, first.body.lead_id, (rows) => rows.length === 1, 'one run')).toHaveLength(1);
    await runOf(app, t.journeyId, first.body.lead_id).signal('unenroll');
  });

  it('1,000 concurrent enrollments of one new phone: 1 lead, 1 run, 1 active enrollment, a short history', async () => {
    const t = await tenant(slow);
    const phone = newPhone();
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => t.send({ workflow_id: t.journeyId, record: { phone, first_name: `Caller ${i}` } })),
    );
    const statuses = new Map<number, number>();
    for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
    const ids = new Set(results.map((r) => r.body.lead_id));
    expect(ids.size).toBe(1);
    // One request started the run; the other 999 are told the lead was already in the journey.
    expect(results.filter((r) => r.body.workflow_assigned === true)).toHaveLength(1);
    expect(results.filter((r) => r.body.workflow_assigned === false).map((r) => r.body.message)).toEqual(Array(999).fill(ALREADY.message));
    const [leadId] = [...ids] as string[];
    expect(await app.db.query('SELECT id FROM leads WHERE workspace_id = $1', [t.workspaceId])).toEqual([{ id: leadId }]);
    const rows = await rowsWhen(app, leadId!, (r) => r.length > 0, 'the enrollment row');
    expect(rows).toMatchObject([{ status: 'active' }]);
    const runs = [];
    for await (const wf of app.temporal.client.workflow.list({ query: `WorkflowId = '${runOf(app, t.journeyId, leadId!).workflowId}'` })) runs.push(wf.runId);
    expect(runs).toEqual([rows[0]!.run_id]);
    // Late duplicates: once the run is asleep (every request answered long before), still one row; and the 999
    // duplicates left nothing in the run's history (a start, a tag, the wait: a few dozen events, not a thousand).
    await rowsWhen(app, leadId!, (r) => r[0]?.current_step === 'nap', 'the run asleep');
    expect(await enrollmentRows(app, leadId!)).toMatchObject([{ status: 'active', run_id: rows[0]!.run_id }]);
    expect((await runOf(app, t.journeyId, leadId!).fetchHistory()).events!.length).toBeLessThan(40);
    await runOf(app, t.journeyId, leadId!).signal('unenroll');
  });
});

describe('PATCH /v1/lead/sendtoworkflow: update, then enroll', () => {
  it('creates the lead when not on file', async () => {
    const t = await tenant();
    const res = await t.send({ workflow_id: t.journeyId, record: { phone: newPhone(), first_name: 'Grace' } }, 'PATCH');
    expect(res.body).toEqual({ ...SUCCESS, lead_id: expect.any(String) });
    expect((await leadRow(app, t.workspaceId, res.body.lead_id)).first_name).toBe('Grace');
    expect((await finished(app, t.journeyId, res.body.lead_id)).status).toBe('completed');
  });

  it('updates the supplied fields of the lead on file (phone stays) and enrolls it', async () => {
    const t = await tenant();
    const phone = newPhone();
    const created = await t.send({ workflow_id: t.journeyId, record: { phone, first_name: 'Grace', company: 'Navy' } });
    await finished(app, t.journeyId, created.body.lead_id);
    const res = await t.send({ workflow_id: t.journeyId, record: { phone: `1${phone}`, company: 'Harvard', email: 'grace@example.com' } }, 'PATCH');
    expect(res.body).toEqual({ ...SUCCESS, lead_id: created.body.lead_id });
    expect(await leadRow(app, t.workspaceId, created.body.lead_id)).toMatchObject({
      phone: `1${phone}`,
      first_name: 'Grace',
      company: 'Harvard',
      email: 'grace@example.com',
    });
    await rowsWhen(app, created.body.lead_id, (rows) => rows.length === 2, 'a second enrollment');
  });

  it('answers 400 for an invalid field instead of enrolling', async () => {
    const t = await tenant();
    const res = await t.send({ workflow_id: t.journeyId, record: { phone: newPhone(), email: 'nope' } }, 'PATCH');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^email: /);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    expect(doc.paths['/v1/lead/sendtoworkflow'].patch.description).toMatch(/updated/);
    expect(doc.paths['/v1/lead/sendtoworkflow'].post.responses['404']).toBeDefined();
    expect(doc.paths['/v1/lead/enrollments'].get).toBeDefined();
  });
});

describe('GET /v1/lead/enrollments', () => {
  it("lists the lead's enrollments from the database", async () => {
    const t = await tenant();
    const res = await t.send({ workflow_id: t.journeyId, record: { phone: newPhone() } });
    await finished(app, t.journeyId, res.body.lead_id);
    const list = await app.request('GET', `/v1/lead/enrollments?lead_id=${res.body.lead_id}`, { key: t.apiKey });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      status: 'success',
      lead_id: res.body.lead_id,
      enrollments: [
        {
          enrollment_id: expect.any(String),
          journey_id: t.journeyId,
          version: 1,
          status: 'completed',
          current_step: 'stop',
          detail: null,
          started_at: expect.any(String),
          updated_at: expect.any(String),
          ended_at: expect.any(String),
        },
      ],
    });
  });

  it("answers 404 for an unknown or another workspace's lead", async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await other.send({ workflow_id: other.journeyId, record: { phone: newPhone() } });
    for (const id of [theirs.body.lead_id, '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11', 'x']) {
      const res = await app.request('GET', `/v1/lead/enrollments?lead_id=${id}`, { key: t.apiKey });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'failed', message: 'Lead not found' });
    }
  });
});
