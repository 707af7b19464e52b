import { WorkflowFailedError } from '@temporalio/client';
import { enrollmentWorkflowId } from '../../src/temporal/ids';
import { SA } from '../../src/temporal/search-attributes';
import { taskQueue } from '../../src/temporal/task-queues';
import { journeyEnrollment } from '../../workflows/journeys/journey';
import { enrollmentRows, importSteps, newPhone, rowsWhen, runOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true });
});
afterAll(() => app.close());

const asleep = [
  { id: 'start', kind: 'tag', tag: 'started' },
  { id: 'nap', kind: 'wait', duration: 'P1D' },
  { id: 'stop', kind: 'end' },
];

async function tenant(steps: unknown[] = asleep) {
  const ws = await app.newWorkspace();
  const journey = await importSteps(app, ws.workspaceId, steps);
  const enroll = async (body: Record<string, unknown>) => {
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, ...body } });
    expect(res.status).toBe(200);
    return res.body.lead_id as string;
  };
  const unenroll = (leadId: string, reason?: string) =>
    app.request('POST', '/v1/lead/unenroll', { key: ws.apiKey, body: { workflow_id: journey.id, lead_id: leadId, ...(reason ? { reason } : {}) } });
  return { ...ws, journeyId: journey.id, enroll, unenroll };
}

const historyLength = async (journeyId: string, leadId: string) => (await runOf(app, journeyId, leadId).fetchHistory()).events!.length;

describe('enrolling a lead that already has a run', () => {
  it('a duplicate enrollment of an active lead writes nothing to its run history', async () => {
    const t = await tenant();
    const lead = await t.enroll({ record: { phone: newPhone() } });
    // Asleep in Temporal's eyes too: its timer started, so nothing of its own adds events for a day.
    await eventually(async () => (await runOf(app, t.journeyId, lead).fetchHistory()).events!.some((e) => e.timerStartedEventAttributes), 20_000, 'the timer');
    const before = await historyLength(t.journeyId, lead);
    const runId = (await runOf(app, t.journeyId, lead).describe()).runId;

    for (let i = 0; i < 5; i++) await t.enroll({ lead_id: lead });
    await Promise.all(Array.from({ length: 5 }, () => t.enroll({ lead_id: lead })));

    expect(await historyLength(t.journeyId, lead)).toBe(before);
    expect((await runOf(app, t.journeyId, lead).describe()).runId).toBe(runId);
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'active', current_step: 'nap', run_id: runId }]);
    expect((await t.unenroll(lead)).status).toBe(200);
  });

  it('an enrollment that races the end of the previous run is not lost: the lead runs the journey again', async () => {
    const t = await tenant();
    const lead = await t.enroll({ record: { phone: newPhone() } });
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the run asleep');
    // An old client's signal (fire and forget) and a new enrollment right behind it: whether the enrollment reaches
    // the run while it is ending or after it closed, a second enrollment runs.
    await runOf(app, t.journeyId, lead).signal('unenroll', { reason: 'old client' });
    await t.enroll({ lead_id: lead });
    const rows = await rowsWhen(app, lead, (r) => r.length === 2 && r[1]!.current_step === 'nap', 'a second enrollment');
    expect(rows.map((r) => [r.status, r.detail])).toEqual([
      ['unenrolled', 'old client'],
      ['active', null],
    ]);
    expect((await t.unenroll(lead)).status).toBe(200);
  });
});

describe('POST /v1/lead/unenroll', () => {
  it('answers once the run has stopped: the enrollment row is final when the 200 arrives', async () => {
    const t = await tenant();
    const lead = await t.enroll({ record: { phone: newPhone() } });
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the run asleep');
    const res = await t.unenroll(lead, 'asked to stop');
    expect(res.status).toBe(200);
    // Read once, right after the answer: no waiting.
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'unenrolled', current_step: 'nap', detail: 'asked to stop' }]);
    const listed = await app.request('GET', `/v1/lead/enrollments?lead_id=${lead}`, { key: t.apiKey });
    expect(listed.body.enrollments).toMatchObject([{ status: 'unenrolled', detail: 'asked to stop' }]);
    expect(await t.unenroll(lead)).toMatchObject({ status: 404, body: { status: 'failed', message: 'Lead is not active in this workflow' } });
  });
});

describe('every way a run ends leaves its enrollment row final', () => {
  it('an activity failure the workflow rethrows fails the run and leaves the row failed, not active', async () => {
    const t = await tenant([{ id: 'x', kind: 'end' }]);
    const leadId = (await app.request('POST', '/v1/lead/create', { key: t.apiKey, body: { phone: newPhone() } })).body.lead_id as string;
    // Started directly (the api validates steps): a tag Postgres rejects for its content (NUL), a final failure.
    const handle = await app.temporal.client.workflow.start(journeyEnrollment, {
      taskQueue: taskQueue('journeys', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      workflowId: enrollmentWorkflowId(t.journeyId, leadId),
      args: [{ workspaceId: t.workspaceId, journeyId: t.journeyId, leadId, version: 1, steps: [{ id: 'bad', kind: 'tag', tag: 'nul\u0000tag' }] }],
      typedSearchAttributes: [
        { key: SA.JourneyId, value: t.journeyId },
        { key: SA.LeadId, value: leadId },
      ],
    });
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(await enrollmentRows(app, leadId)).toMatchObject([{ status: 'failed', current_step: 'bad', detail: 'run failed: invalid_data' }]);
    expect((await handle.describe()).typedSearchAttributes.get(SA.Outcome)).toBe('failed');
  });

  it('a run terminated from outside leaves its row failed once the api sees it has no open run', async () => {
    const t = await tenant();
    const lead = await t.enroll({ record: { phone: newPhone() } });
    await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the run asleep');
    await runOf(app, t.journeyId, lead).terminate('operator');
    expect(await t.unenroll(lead)).toMatchObject({ status: 404, body: { status: 'failed', message: 'Lead is not active in this workflow' } });
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'failed', detail: 'its run ended without reporting (terminated or timed out)' }]);
  });
});
