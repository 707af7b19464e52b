import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { enrollmentWorkflowId } from '../../src/temporal/ids';
import { SA } from '../../src/temporal/search-attributes';
import { taskQueue } from '../../src/temporal/task-queues';
import { journeyEnrollment } from '../../workflows/journeys/journey';
import { enrollmentRows, importSteps, newPhone, rowsWhen, runOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

const { WorkflowTaskFailedCause } = temporal.api.enums.v1;

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

/** Workflow tasks of a run that Temporal refused because an event came while they closed it (UnhandledCommand). */
const refusedTasks = async (handle: WorkflowHandle) =>
  (await handle.fetchHistory()).events!.filter(
    (e) => e.workflowTaskFailedEventAttributes?.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND,
  ).length;

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

  it('an event that reaches the run while the workflow task closing it is open does not fail the unenroll', async () => {
    const t = await tenant();
    const lead = await t.enroll({ record: { phone: newPhone() } });
    const [row] = await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'the run asleep');
    // The unenroll's workflow task records the end (a local activity), answers the update and closes the run. Holding
    // the enrollment row keeps that task open while a signal arrives; Temporal then refuses the task's close
    // (UnhandledCommand) and aborts the update it carried with FAILED_PRECONDITION, although nothing of it was applied.
    const holder = await app.db.pool.connect();
    let answer: ReturnType<typeof t.unenroll>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM enrollments WHERE id = $1 FOR UPDATE', [row!.id]);
      answer = t.unenroll(lead, 'asked to stop');
      const waiting = `SELECT 1 AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE enrollments SET status%'`;
      await eventually(async () => (await app.db.one(waiting)) !== undefined, 20_000, 'the recording of the end to wait on the row');
      // A signal the workflow has no handler for: an event in the history that changes nothing else.
      await runOf(app, t.journeyId, lead).signal('nudge');
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    expect(await answer).toMatchObject({ status: 200, body: { status: 'success', message: 'Lead removed from workflow' } });
    expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'unenrolled', detail: 'asked to stop' }]);
    expect(await refusedTasks(runOf(app, t.journeyId, lead))).toBeGreaterThanOrEqual(1); // the race happened: the 200 came from the update sent again
  });

  it('clients enrolling and unenrolling one lead at once get answers, never a 5xx, and leave one consistent enrollment', async () => {
    const t = await tenant();
    const lead = await t.enroll({ record: { phone: newPhone() } });
    const statuses: Record<string, number> = {};
    const enrollAgain = () => app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body: { workflow_id: t.journeyId, lead_id: lead } });
    // Four clients, 100 requests each, alternating so that updates keep meeting runs that are closing.
    await Promise.all(
      [0, 1, 2, 3].map(async (client) => {
        for (let i = 0; i < 100; i++) {
          const op = (i + client) % 2 === 0 ? 'enroll' : 'unenroll';
          const res = op === 'enroll' ? await enrollAgain() : await t.unenroll(lead);
          const key = `${op} ${res.status}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
        }
      }),
    );
    expect(Object.keys(statuses).filter((k) => !/ (200|404)$/.test(k))).toEqual([]);
    // Stopped once more, the lead has no open run and no active row.
    const last = await t.unenroll(lead);
    expect([200, 404]).toContain(last.status);
    const runs = [];
    for await (const run of app.temporal.client.workflow.list({ query: `WorkflowId = '${enrollmentWorkflowId(t.journeyId, lead)}'` })) runs.push(run);
    expect(runs.filter((r) => r.status.name === 'RUNNING')).toEqual([]);
    expect((await enrollmentRows(app, lead)).filter((r) => r.status === 'active')).toEqual([]);
    // The race the retry is for happened here (Temporal refused a task that closed a run while a message came).
    let refused = 0;
    for (const run of runs) refused += await refusedTasks(app.temporal.client.workflow.getHandle(run.workflowId, run.runId));
    expect(refused).toBeGreaterThan(0);
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
