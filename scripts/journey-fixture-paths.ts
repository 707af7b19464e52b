// The journey paths scripts/record-journey-fixtures.ts records: each drives one real run on the test stack and names
// the run whose history becomes test/fixtures/journey-history-<name>.json.
import type { temporal } from '@temporalio/proto';
import { enrollmentWorkflowId } from '../src/temporal/ids';
import { SA } from '../src/temporal/search-attribute-keys';
import { taskQueue } from '../src/temporal/task-queues';
import { parseJourneySteps } from '../src/journeys/schema';
import type { journeyEnrollment } from '../workflows/journeys/journey';
import { enrollSignal, unenrollSignal, type JourneyInput, type JourneyState } from '../workflows/journeys/journey-messages';
import { everyStepKind, finished, newPhone, rowsWhen } from '../test/helpers/journeys';
import { atStep, tenant, timerStarted, type PathContext, type RecordedRun } from './journey-fixture-helpers';
import { callPaths } from './journey-fixture-paths-calls';
import { triggerPaths } from './journey-fixture-paths-triggers';
import { updatePaths } from './journey-fixture-paths-updates';

/** Every path, by fixture name. */
export const journeyPaths: Record<string, (ctx: PathContext) => Promise<RecordedRun>> = {
  /** The Outcome search attribute behind its patch: every step kind, a wait, a webhook, branches; ends completed. */
  async 'post-patch'(ctx) {
    const t = await tenant(ctx, everyStepKind(ctx.hooks));
    const { handle } = await t.enroll();
    const end = (await handle.result()) as JourneyState;
    if (end.status !== 'completed') throw new Error(`post-patch run ended ${end.status}`);
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },

  /** An enroll signal (a repeat enrollment joining the open run) that the active run ignores. */
  async 'enroll-signal'(ctx) {
    const t = await tenant(ctx, [
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'nap', kind: 'wait', duration: 'PT2S' },
      { id: 'stop', kind: 'end' },
    ]);
    const { leadId, handle } = await t.enroll();
    await atStep(ctx, leadId, 'nap');
    await handle.signal(enrollSignal, { version: t.version });
    await handle.result();
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },

  /** The unenroll signal during a long wait: the timer is cancelled, the run ends unenrolled. */
  async 'unenroll-mid-wait'(ctx) {
    const t = await tenant(ctx, [
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'nap', kind: 'wait', duration: 'P2D' },
      { id: 'late', kind: 'tag', tag: 'late' },
    ]);
    const { leadId, handle } = await t.enroll();
    await atStep(ctx, leadId, 'nap');
    await timerStarted(ctx, handle.workflowId);
    await handle.signal(unenrollSignal, { reason: 'fixture' });
    const end = (await handle.result()) as JourneyState;
    if (end.status !== 'unenrolled') throw new Error(`unenroll run ended ${end.status}`);
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },

  /** Unenroll then enroll before the run ends: it finishes the old enrollment and continues as new on the journey. */
  async 'start-over'(ctx) {
    const t = await tenant(ctx, [
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'nap', kind: 'wait', duration: 'P1D' },
      { id: 'stop', kind: 'end' },
    ]);
    const { leadId, handle } = await t.enroll();
    await atStep(ctx, leadId, 'nap');
    const firstRunId = (await handle.describe()).runId;
    await handle.signal(unenrollSignal);
    await handle.signal(enrollSignal, { version: t.version });
    await rowsWhen(ctx.app, leadId, (rows) => rows.length === 2 && rows[1]!.current_step === 'nap', 'the second enrollment');
    await handle.signal(unenrollSignal); // the new run is not recorded; it only has to end
    await finished(ctx.app, t.journeyId, leadId);
    return { workflowId: handle.workflowId, runId: firstRunId };
  },

  /** Continue-as-new after a wait (maxStepsPerRun 2): the first run, which hands its state on. */
  async 'continue-as-new'(ctx) {
    return (await continuedRuns(ctx))[0]!;
  },

  /** A run that started from carried state (resume), waited, and continued as new again. */
  async resumed(ctx) {
    return (await continuedRuns(ctx))[1]!;
  },

  /** A wait for a weekday/time window that is closed when the run gets there (a real timer, up to two minutes). */
  async 'window-wait'(ctx) {
    const now = new Date();
    const startMinute = now.getUTCHours() * 60 + now.getUTCMinutes() + (now.getUTCSeconds() < 40 ? 1 : 2);
    if (startMinute >= 24 * 60 - 1) throw new Error('too close to midnight UTC for a one-minute window: run it again in a few minutes');
    const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const all = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    const t = await tenant(ctx, [
      { id: 'office', kind: 'wait', until: { days: all, start: clock(startMinute), end: clock(startMinute + 1) } },
      { id: 'inside', kind: 'tag', tag: 'in_window' },
      { id: 'stop', kind: 'end' },
    ]);
    const { handle } = await t.enroll({ timezone: 'UTC' });
    await timerStarted(ctx, handle.workflowId);
    await handle.result();
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },
  ...updatePaths,
  ...callPaths,
  ...triggerPaths,
};

let continued: Promise<RecordedRun[]> | undefined;

/** One enrollment started as the api would, with maxStepsPerRun 2: three runs; the first two are recorded. */
function continuedRuns(ctx: PathContext): Promise<RecordedRun[]> {
  continued ??= (async () => {
    const steps = [
      { id: 'one', kind: 'tag', tag: 'one' },
      { id: 'nap', kind: 'wait', duration: 'PT1S' },
      { id: 'two', kind: 'tag', tag: 'two' },
      { id: 'again', kind: 'wait', duration: 'PT1S' },
      { id: 'three', kind: 'tag', tag: 'three' },
      { id: 'stop', kind: 'end' },
    ];
    const t = await tenant(ctx, steps);
    const lead = await ctx.app.request('POST', '/v1/lead/create', { key: t.apiKey, body: { phone: newPhone() } });
    const leadId = lead.body.lead_id as string;
    if (!leadId) throw new Error(`lead create failed: ${JSON.stringify(lead.body)}`);
    const input: JourneyInput = {
      workspaceId: t.workspaceId,
      journeyId: t.journeyId,
      leadId,
      version: t.version,
      steps: parseJourneySteps(steps),
      maxStepsPerRun: 2,
    };
    const handle = await ctx.app.temporal.client.workflow.start<typeof journeyEnrollment>('journeyEnrollment', {
      taskQueue: taskQueue('journeys', ctx.app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      workflowId: enrollmentWorkflowId(t.journeyId, leadId),
      args: [input],
      typedSearchAttributes: [
        { key: SA.WorkspaceId, value: t.workspaceId },
        { key: SA.LeadId, value: leadId },
        { key: SA.JourneyId, value: t.journeyId },
      ],
    });
    await handle.result();
    const runs: RecordedRun[] = [];
    for (let runId: string | undefined = handle.firstExecutionRunId; runId;) {
      runs.push({ workflowId: handle.workflowId, runId });
      const history: temporal.api.history.v1.IHistory = await ctx.app.temporal.client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
      runId = history.events!.at(-1)!.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    if (runs.length !== 3) throw new Error(`expected three runs, got ${runs.length}`);
    return runs;
  })();
  return continued;
}
