import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { createJourneyPreviewActivities } from '../activities/journeys/journey-preview';
import { loadConfig, type Config } from '../src/core/config';
import { temporalDataConverter } from '../src/temporal/client';
import { previewTaskQueue, TASK_QUEUE_KINDS, taskQueue, type TaskQueueKind } from '../src/temporal/task-queues';
import { workerLimits, type WorkerLimits } from '../src/temporal/worker-queues';
import { workerTracing } from '../src/telemetry/temporal';
import { activityBoundary } from './activity-errors';
import { workflowBundleFor } from './bundle';
import { sdkLogger } from './sdk-logger';

export interface WorkerSetOptions extends ActivityDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueuePrefix: string;
  /** A prebuilt workflow bundle (production, tests: worker/bundle.ts writeBundles); without it the workflows are bundled at start-up. */
  bundlePath?: string;
  shutdownGraceMs?: number;
  /** The task queues to serve (default: all of them). */
  kinds?: readonly TaskQueueKind[];
  /** Per-queue concurrency limits (default: the SDK's). */
  limits?: (kind: TaskQueueKind) => WorkerLimits;
}

/** How long past the activities' grace a worker's shutdown may take before it is forced. */
export const SHUTDOWN_FORCE_AFTER_GRACE_MS = 3000;

/**
 * One worker per task queue; together they run every workflow and activity. Serving journeys includes their preview
 * queue, whose worker runs the same workflows with recorder activities only (a real one there would fail, not act).
 */
export async function createWorkers(o: WorkerSetOptions): Promise<Worker[]> {
  const activities = createActivities({ db: o.db, logger: o.logger, config: o.config });
  const recorders = createJourneyPreviewActivities({ db: o.db, logger: o.logger, ssrfAllowlist: o.config?.SSRF_ALLOWLIST ?? [] });
  const tracing = workerTracing();
  // Bundled once and shared: every queue's worker runs the same workflow code, traced when this worker traces (the
  // sink is there only then).
  const workflowBundle = await workflowBundleFor(o.bundlePath, tracing.sinks !== undefined, sdkLogger(o.logger, { quiet: true }));
  const kinds = o.kinds ?? TASK_QUEUE_KINDS;
  const queues = [
    ...kinds.map((kind) => ({ kind, name: taskQueue(kind, o.taskQueuePrefix), activities })),
    ...(kinds.includes('journeys') ? [{ kind: 'journeys' as const, name: previewTaskQueue(o.taskQueuePrefix), activities: recorders }] : []),
  ];
  return Promise.all(
    queues.map(({ kind, name, activities }) =>
      Worker.create({
        connection: o.connection,
        namespace: o.namespace,
        taskQueue: name,
        activities,
        // The span is outermost: it times the whole activity and records the failure the boundary made of an error.
        interceptors: { activity: [...tracing.activity, activityBoundary] },
        ...(tracing.sinks ? { sinks: tracing.sinks } : {}),
        workflowBundle,
        ...o.limits?.(kind),
        dataConverter: temporalDataConverter(o.config ?? loadConfig()),
        shutdownGraceTime: o.shutdownGraceMs ?? 10_000,
        // Bounded: a worker whose server is gone must not retry its completions for ever on shutdown.
        shutdownForceTime: (o.shutdownGraceMs ?? 10_000) + SHUTDOWN_FORCE_AFTER_GRACE_MS,
      }),
    ),
  );
}

/** The worker set a process runs from its configuration (the worker process, or the api's in-process automations worker). */
export function workerSetFromConfig(
  config: Config,
  parts: { connection: NativeConnection; db: ActivityDeps['db']; logger: ActivityDeps['logger']; kinds?: readonly TaskQueueKind[] },
): Promise<Worker[]> {
  return createWorkers({
    kinds: config.WORKER_TASK_QUEUES,
    ...parts,
    config,
    limits: (kind) => workerLimits(config, kind),
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX,
    bundlePath: config.WORKER_BUNDLE_PATH,
    shutdownGraceMs: config.WORKER_SHUTDOWN_GRACE_MS,
  });
}

/** Runs the workers until shutdown() is called on each (or a fatal error). */
export async function runWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.run()));
}
