import type { Connection } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfigOrExit, type Config } from '../src/core/config';
import { createDb } from '../src/db/pool';
import { createLogger, type Logger } from '../src/telemetry/log';
import { handleShutdownSignals } from '../src/core/shutdown';
import { connectNativeTemporal, connectTemporal } from '../src/temporal/client';
import { registerSearchAttributesAtStart } from '../src/temporal/search-attributes';
import { ensureRefreshSchedule } from '../src/connections/schedule';
import { ensureReclaimSchedule } from '../src/calls/schedule';
import { currentTracing, startTracing } from '../src/telemetry/tracing';
import { startWorkerHealth } from './health';
import { untilPolling } from './polling';
import { installSdkRuntime } from './runtime';
import { runWorkers, SHUTDOWN_FORCE_AFTER_GRACE_MS, workerSetFromConfig } from './workers';

export interface RunningWorker {
  workers: Worker[];
  /** The workers' connection (open until they stop): a client on it in this process starts workflows eagerly on them. */
  connection: NativeConnection;
  /** Where /healthz and /readyz (the queues it polls) answer. */
  healthUrl: string;
  /** Resolves once the server sees every worker poll its task queue (logged as `worker polling`). */
  polling: Promise<void>;
  /** Resolves when every worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/** The worker process's SDK runtime: Prometheus metrics from the SDK itself, pino for its logs. */
function installRuntime(config: Config, logger: Logger) {
  installSdkRuntime(logger, { prometheus: { bindAddress: `${config.HOST === '0.0.0.0' ? '0.0.0.0' : '127.0.0.1'}:${config.WORKER_METRICS_PORT}` } });
}

/**
 * The Temporal Schedules, each created idempotently (a failure is logged, the worker starts anyway): OAuth tokens
 * renewed ahead of expiry, and the slots of api calls whose workflow never started (the api died first) freed.
 */
async function ensureSchedules(config: Config, logger: Logger): Promise<void> {
  const schedules = [
    { name: 'connection refresh', ensure: ensureRefreshSchedule },
    { name: 'call reclaim', ensure: ensureReclaimSchedule },
  ];
  try {
    const temporal = await connectTemporal(config);
    try {
      for (const { name, ensure } of schedules) {
        await ensure(temporal.client, config.TEMPORAL_TASK_QUEUE_PREFIX).catch((err: Error) =>
          logger.warn({ err: err.message }, `could not create the ${name} schedule`),
        );
      }
    } finally {
      await temporal.connection.close();
    }
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'could not create the schedules');
  }
}

/** Starts the worker process's workers against config's Temporal and Postgres. */
export async function startWorker(config: Config, opts: { logger?: Logger } = {}): Promise<RunningWorker> {
  startTracing('switchboard-worker');
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'worker', { format: config.LOG_FORMAT });
  installRuntime(config, logger);
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL: required by the worker');
  const db = createDb(config.DATABASE_URL, { max: config.DATABASE_POOL_MAX, logger });
  const connection = await connectNativeTemporal(config);
  try {
    let admin: Connection | undefined;
    await registerSearchAttributesAtStart(config, async () => (admin = (await connectTemporal(config)).connection)).finally(() => admin?.close());
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'could not register search attributes');
  }
  await ensureSchedules(config, logger);
  const workers = await workerSetFromConfig(config, { connection, db, logger });
  const host = config.HOST === '0.0.0.0' ? '0.0.0.0' : '127.0.0.1';
  const health = await startWorkerHealth({ host, port: config.WORKER_HEALTH_PORT, workers, db, connection });
  const done = runWorkers(workers).finally(async () => {
    await health.close();
    await connection.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    await currentTracing()
      ?.shutdown()
      .catch(() => undefined);
  });
  const polling = untilPolling(connection, workers).then(() =>
    logger.info({ taskQueues: workers.map((w) => w.options.taskQueue), metricsPort: config.WORKER_METRICS_PORT, health: health.url }, 'worker polling'),
  );
  polling.catch(() => undefined); // the caller that waits for it sees the failure; done reports a worker that stopped
  return {
    workers,
    connection,
    healthUrl: health.url,
    polling,
    done,
    async shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await done;
    },
  };
}

/** The longest an orderly worker shutdown can take (the SDK forces it after that), plus a margin. */
export const workerStopLimitMs = (config: Pick<Config, 'WORKER_SHUTDOWN_GRACE_MS'>) => config.WORKER_SHUTDOWN_GRACE_MS + SHUTDOWN_FORCE_AFTER_GRACE_MS + 2000;

if (require.main === module) {
  const config = loadConfigOrExit();
  startWorker(config).then(
    (w) => {
      handleShutdownSignals({ stop: () => w.shutdown(), watchdogMs: workerStopLimitMs(config), say: (line) => process.stderr.write(`[worker] ${line}\n`) });
      w.done.then(
        () => process.exit(0),
        (err) => {
          console.error(err);
          process.exit(1);
        },
      );
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
