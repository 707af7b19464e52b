import type { Client } from '@temporalio/client';
import { startApi, type RunningApi } from '../api/main';
import type { Config } from '../core/config';
import { createLogger } from '../telemetry/log';
import { temporalClient } from '../temporal/client';
import { startWorker, workerStopLimitMs, type RunningWorker } from '../../worker/main';
import { within } from './dev-within';

/** What the api and worker process tells the launcher once the worker polls. */
export interface DevServicesReady {
  apiUrl: string;
  metricsUrl: string;
  taskQueues: string[];
  workerHealthUrl: string;
}

const say = (line: string) => process.stderr.write(`[switchboard] ${line}\n`);

/**
 * The api and a worker of `npm start`, in a process of their own that the launcher (src/cli/dev.ts) watches: however
 * this process ends (a crash, a kill), the launcher stops Postgres, Temporal and the rest. It stops on SIGTERM or
 * SIGINT from the launcher, and by itself when the launcher is gone (its IPC channel closes), so it never outlives it.
 */
export async function runDevServices(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, 'switchboard', { format: config.LOG_FORMAT });
  let api: RunningApi | undefined;
  let worker: RunningWorker | undefined;
  let stopping = false;
  // Set once the worker runs: the api then starts automation runs eagerly on it (no server dispatch of the first task).
  let eagerClient: Client | undefined;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    eagerClient = undefined;
    void Promise.all([
      within('the api', 5_000, api && (() => api!.close()), say),
      within('the worker', workerStopLimitMs(config), worker && (() => worker!.shutdown()), say),
    ]).finally(() => process.exit(code));
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(0));
  process.on('disconnect', () => stop(1));
  try {
    // In a terminal, one line per successful request drowns everything else: those go to debug.
    api = await startApi(config, { logger: logger.child({ component: 'api' }), requestLog: 'failures', eagerClient: () => eagerClient });
    if (stopping) return;
    worker = await startWorker(config, { logger: logger.child({ component: 'worker' }) });
    if (stopping) return;
    // `ready:` promises that work is picked up: wait until the server sees every worker poll.
    await worker.polling;
    if (stopping) return;
  } catch (err) {
    say(`the api and worker failed to start: ${(err as Error).message}`);
    stop(1);
    return;
  }
  eagerClient = temporalClient(worker.connection, config);
  const ready: DevServicesReady = {
    apiUrl: api.url,
    metricsUrl: api.metricsUrl,
    taskQueues: worker.workers.map((w) => w.options.taskQueue),
    workerHealthUrl: worker.healthUrl,
  };
  process.send?.({ ready });
  worker.done.then(
    () => {
      if (!stopping) say('the worker stopped');
      stop(1);
    },
    (err: Error) => {
      if (!stopping) say(`the worker failed (${err.message})`);
      stop(1);
    },
  );
}
