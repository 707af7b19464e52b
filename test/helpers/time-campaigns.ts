import { Client, WorkflowNotFoundError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities, type Activities } from '../../activities';
import { msUntilWindow } from '../../src/schedule/window';
import { createLogger } from '../../src/telemetry/log';
import { temporalDataConverter } from '../../src/temporal/client';
import { callWorkflowId, campaignWorkflowId } from '../../src/temporal/ids';
import { taskQueue } from '../../src/temporal/task-queues';
import { activityBoundary } from '../../worker/activity-errors';
import { testEnv } from './env';
import { releaseOrphanLocks } from './orphan-locks';
import { startTestApp, type TestApp } from './stack';
import { skipTo, startTimeSkipping } from './time-skipping';
import { eventually } from './webhook-receiver';

/** The api (POST /v1/campaigns, the provider's status callbacks) and the journeys and calls workers on a time-skipping server. */
export interface CampaignTimeStack {
  env: TestWorkflowEnvironment;
  app: TestApp;
  /** A client that never unlocks time skipping (env.client does while it awaits a result). */
  client: Client;
  /**
   * Waits in real time until the campaign's run sleeps on one timer with nothing else in flight (no workflow task,
   * activity or child open, no run under it open), or has ended; then releases the time-skipping locks the test server
   * leaked meanwhile. Only then may the clock be skipped: a skip during a call would jump past the call's
   * provider-silence timer before the carrier's callbacks (real time) arrive.
   */
  settle(campaignId: string): Promise<void>;
  /** When set, awaited before each of the campaign's looks for due leads (campaignDueLeads) runs. */
  beforeDueLeads?: (a: Parameters<Activities['campaignDueLeads']>[0]) => Promise<void>;
  /** Settles, then moves the server's clock to instant. */
  skipTo(campaignId: string, instant: string | number): Promise<void>;
  /** The campaign's calls with the lead's phone and the server-clock instants the call was dialled and ended. */
  calls(campaignId: string): Promise<CampaignCallTimes[]>;
  close(): Promise<void>;
}

export interface CampaignCallTimes {
  callId: string;
  phone: string;
  attempt: number;
  /** When the run asked the provider to place it (placeCall scheduled), on the server's clock; null: never dialled. */
  dialledAt: number | null;
  /** When its run closed, on the server's clock; null: still open. */
  endedAt: number | null;
}

const ms = (t: { seconds?: unknown; nanos?: number | null }) => Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6);

/** Starts a test server whose clock starts at initialTime, the api on it with the carrier simulator, and the workers. */
export async function startCampaignTimeStack(initialTime: string): Promise<CampaignTimeStack> {
  const env = await startTimeSkipping({ initialTime });
  const app = await startTestApp({ simulator: true, config: { TEMPORAL_ADDRESS: env.connection.options.address, TEMPORAL_NAMESPACE: 'default' } });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'campaigns-time');
  const activities = createActivities({ db: app.db, logger, config: app.config });
  const onServerClock: Activities = {
    ...activities,
    // The call's window check reads the machine's clock, which the skipped server clock does not move (the campaign's
    // own check takes the run's clock, which is the server's).
    msUntilCallWindow: async (a) => msUntilWindow(await env.currentTimeMs(), a.window, a.timeZone),
    campaignDueLeads: async (a) => {
      await stack.beforeDueLeads?.(a);
      return activities.campaignDueLeads(a);
    },
  };
  const workers = await Promise.all(
    (['journeys', 'calls'] as const).map((kind) =>
      Worker.create({
        connection: env.nativeConnection,
        dataConverter: temporalDataConverter(app.config),
        taskQueue: taskQueue(kind, app.config.TEMPORAL_TASK_QUEUE_PREFIX),
        workflowBundle: { codePath: testEnv('bundlePath') },
        activities: onServerClock,
        interceptors: { activity: [activityBoundary] },
      }),
    ),
  );
  const running = Promise.all(workers.map((w) => w.run()));
  const client = new Client({ connection: env.connection, dataConverter: temporalDataConverter(app.config) });
  const released = new Set<string>();

  const asleep = async (campaignId: string) => {
    const handle = client.workflow.getHandle(campaignWorkflowId(campaignId));
    const { raw, status } = await handle.describe();
    if (status.name !== 'RUNNING') return true;
    if (raw.pendingActivities?.length || raw.pendingChildren?.length || raw.pendingWorkflowTask) return false;
    const events = (await handle.fetchHistory()).events ?? [];
    // Something happened that the run has not handled yet (the test server's describe leaves pendingWorkflowTask out).
    const tasks = events.filter(
      (e) => e.workflowTaskScheduledEventAttributes || e.workflowTaskStartedEventAttributes || e.workflowTaskCompletedEventAttributes,
    );
    if (!tasks.at(-1)?.workflowTaskCompletedEventAttributes) return false;
    const timers = new Set(events.flatMap((e) => (e.timerStartedEventAttributes ? [e.timerStartedEventAttributes.timerId] : [])));
    for (const e of events) timers.delete(e.timerFiredEventAttributes?.timerId ?? e.timerCanceledEventAttributes?.timerId);
    return timers.size === 1;
  };
  const settle = async (campaignId: string) => {
    await eventually(
      async () => (await asleep(campaignId)) && (await releaseOrphanLocks(env, client, [campaignWorkflowId(campaignId)], released).then(() => true)),
      60_000,
      'the campaign asleep on its timer, nothing under it open',
    );
  };

  const stack: CampaignTimeStack = {
    env,
    app,
    client,
    settle,
    async skipTo(campaignId, instant) {
      await settle(campaignId);
      await skipTo(env, new Date(instant).toISOString());
    },
    async calls(campaignId) {
      const rows = await app.db.query<{ call_id: string; attempt: number; phone: string }>(
        `SELECT k.call_id, k.attempt, l.phone FROM campaign_calls k
         JOIN campaign_leads c ON c.campaign_id = k.campaign_id AND c.position = k.position JOIN leads l ON l.id = c.lead_id
         WHERE k.campaign_id = $1 ORDER BY k.position, k.attempt`,
        [campaignId],
      );
      return Promise.all(
        rows.map(async (r) => {
          const handle = client.workflow.getHandle(callWorkflowId(r.call_id));
          const times = { callId: r.call_id, phone: r.phone, attempt: r.attempt, dialledAt: null as number | null, endedAt: null as number | null };
          try {
            const events = (await handle.fetchHistory()).events ?? [];
            const dial = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'placeCall');
            times.dialledAt = dial ? ms(dial.eventTime!) : null;
            times.endedAt = (await handle.describe()).closeTime?.getTime() ?? null;
          } catch (err) {
            // Recorded, its run not started yet.
            if (!(err instanceof WorkflowNotFoundError)) throw err;
          }
          return times;
        }),
      );
    },
    async close() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running;
      await app.close();
      await env.teardown();
    },
  };
  return stack;
}
