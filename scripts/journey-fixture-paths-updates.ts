// The journey paths that came with the enroll and unenroll updates and the journey-final-row patch (recorded by
// scripts/record-journey-fixtures.ts like the others, under test/fixtures/journey-history-<name>.json).
import { ApplicationFailure, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { JourneyStep } from '../src/journeys/schema';
import { enrollmentWorkflowId } from '../src/temporal/ids';
import { SA } from '../src/temporal/search-attribute-keys';
import { taskQueue } from '../src/temporal/task-queues';
import type { journeyEnrollment } from '../workflows/journeys/journey';
import { ALREADY_ACTIVE, enrollUpdate, unenrollSignal, type JourneyState } from '../workflows/journeys/journey-messages';
import { enrollmentRows, finished, newPhone, rowsWhen } from '../test/helpers/journeys';
import { eventually } from '../test/helpers/webhook-receiver';
import { atStep, eventsOf, runIdOf, tenant, timerStarted, type PathContext, type RecordedRun } from './journey-fixture-helpers';

const asleep = (duration: string) => [
  { id: 'start', kind: 'tag', tag: 'started' },
  { id: 'nap', kind: 'wait', duration },
  { id: 'late', kind: 'tag', tag: 'late' },
  { id: 'stop', kind: 'end' },
];

/** The paths of the enroll and unenroll updates and the final-row patch, by fixture name. */
export const updatePaths: Record<string, (ctx: PathContext) => Promise<RecordedRun>> = {
  /** A run that has decided to end (unenrolled, its row not yet final) accepts an enroll update and continues as new. */
  async 'enroll-update-start-over'(ctx) {
    const t = await tenant(ctx, asleep('P1D'));
    const { leadId, handle } = await t.enroll();
    const [row] = await atStep(ctx, leadId, 'nap');
    await timerStarted(ctx, handle.workflowId);
    const first = await runIdOf(handle);
    // Holding the enrollment row keeps the run's journeyFinished activity waiting, so the update surely reaches a
    // run that is ending but still open (the race an enrollment right behind an unenroll can lose or win).
    await ctx.app.db.tx(async (q) => {
      await q.query('SELECT 1 FROM enrollments WHERE id = $1 FOR UPDATE', [row!.id]);
      await handle.signal(unenrollSignal, { reason: 'fixture' });
      // journeyFinished is a local activity (journey-local-data): it leaves no event while it waits, but the workflow
      // task that took the signal and runs it completes (a heartbeat) with the run ending.
      await eventually(
        async () => {
          const events = await eventsOf(ctx, handle.workflowId);
          const signalled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
          return signalled >= 0 && events.slice(signalled).some((e) => e.workflowTaskCompletedEventAttributes);
        },
        60_000,
        'the run ending',
      );
      const answer = await handle.executeUpdate(enrollUpdate, { args: [{ version: t.version }] });
      if (answer !== 'restarting') throw new Error(`enroll update answered ${answer}`);
    });
    await rowsWhen(ctx.app, leadId, (rows) => rows.length === 2 && rows[1]!.current_step === 'nap', 'the second enrollment');
    await handle.signal(unenrollSignal); // the new run is not recorded; it only has to end
    await finished(ctx.app, t.journeyId, leadId);
    return first;
  },

  /** POST /v1/lead/unenroll during a long wait: the unenroll update cancels the timer and answers once the row is final. */
  async 'unenroll-update'(ctx) {
    const t = await tenant(ctx, asleep('P2D'));
    const { leadId, handle } = await t.enroll();
    await atStep(ctx, leadId, 'nap');
    await timerStarted(ctx, handle.workflowId);
    const res = await t.unenroll(leadId, 'fixture');
    if (res.status !== 200) throw new Error(`unenroll answered ${res.status} ${JSON.stringify(res.body)}`);
    const end = (await handle.result()) as JourneyState;
    if (end.status !== 'unenrolled') throw new Error(`unenroll-update run ended ${end.status}`);
    return runIdOf(handle);
  },

  /** An activity's final failure the workflow rethrows: the row is recorded failed before the run fails. */
  async 'failed-run'(ctx) {
    const t = await tenant(ctx, [{ id: 'x', kind: 'end' }]);
    const lead = await ctx.app.request('POST', '/v1/lead/create', { key: t.apiKey, body: { phone: newPhone() } });
    const leadId = lead.body.lead_id as string;
    if (!leadId) throw new Error(`lead create failed: ${JSON.stringify(lead.body)}`);
    // Started directly (the api validates steps): a tag Postgres rejects for its content (NUL) is a final failure.
    const steps: JourneyStep[] = [
      { id: 'fine', kind: 'tag', tag: 'fine' },
      { id: 'bad', kind: 'tag', tag: 'nul\u0000tag' },
    ];
    const handle = await ctx.app.temporal.client.workflow.start<typeof journeyEnrollment>('journeyEnrollment', {
      taskQueue: taskQueue('journeys', ctx.app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      workflowId: enrollmentWorkflowId(t.journeyId, leadId),
      args: [{ workspaceId: t.workspaceId, journeyId: t.journeyId, leadId, version: t.version, steps }],
      typedSearchAttributes: [
        { key: SA.WorkspaceId, value: t.workspaceId },
        { key: SA.LeadId, value: leadId },
        { key: SA.JourneyId, value: t.journeyId },
      ],
    });
    const outcome = await handle.result().then(
      () => 'completed',
      (err: unknown) => (err instanceof WorkflowFailedError ? 'failed' : Promise.reject(err)),
    );
    if (outcome !== 'failed') throw new Error(`failed-run run ${outcome}`);
    const rows = await enrollmentRows(ctx.app, leadId);
    if (rows[0]?.status !== 'failed') throw new Error(`failed-run row is ${rows[0]?.status}`);
    return runIdOf(handle);
  },

  /** Enrollments of a lead whose run is active: the validator rejects the enroll updates, which leave no events. */
  async 'duplicate-enroll-rejected'(ctx) {
    const t = await tenant(ctx, asleep('P1D'));
    const { leadId, handle } = await t.enroll();
    await atStep(ctx, leadId, 'nap');
    await timerStarted(ctx, handle.workflowId);
    const before = (await eventsOf(ctx, handle.workflowId)).length;
    for (let i = 0; i < 3; i++) {
      const rejected = await handle.executeUpdate(enrollUpdate, { args: [{ version: t.version }] }).then(
        () => false,
        (err: unknown) => err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === ALREADY_ACTIVE,
      );
      if (!rejected) throw new Error('an enroll update to an active run was not rejected');
      // The api's way: a repeat enrollment of the same lead (its update rejected, answered 200).
      const res = await ctx.app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body: { workflow_id: t.journeyId, lead_id: leadId } });
      if (res.status !== 200) throw new Error(`repeat enrollment answered ${res.status} ${JSON.stringify(res.body)}`);
    }
    const after = (await eventsOf(ctx, handle.workflowId)).length;
    if (after !== before) throw new Error(`rejected enroll updates wrote ${after - before} events`);
    const res = await t.unenroll(leadId, 'fixture');
    if (res.status !== 200) throw new Error(`unenroll answered ${res.status} ${JSON.stringify(res.body)}`);
    await handle.result();
    return runIdOf(handle);
  },
};
