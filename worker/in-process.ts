import type { Client } from '@temporalio/client';
import type { Config } from '../src/core/config';
import type { Db } from '../src/db/pool';
import type { Logger } from '../src/telemetry/log';
import { connectNativeTemporal, temporalClient } from '../src/temporal/client';
import { installSdkRuntime } from './runtime';
import { runWorkers, workerSetFromConfig } from './workers';

/** An automations worker inside the api process and a client on its connection, for eager starts. */
export interface InProcessAutomationWorker {
  /** The client while the worker runs (undefined once it stops: runs then start the ordinary way). */
  eagerClient(): Client | undefined;
  stop(): Promise<void>;
}

/** Starts the automations worker of API_AUTOMATION_WORKER in this (api) process. */
export async function startInProcessAutomationWorker(config: Config, db: Db, logger: Logger): Promise<InProcessAutomationWorker> {
  installSdkRuntime(logger);
  const connection = await connectNativeTemporal(config);
  const workers = await workerSetFromConfig(config, { connection, db, logger, kinds: ['automations'] }).catch(async (err: unknown) => {
    await connection.close();
    throw err;
  });
  const done = runWorkers(workers).finally(() => connection.close().catch(() => undefined));
  let client: Client | undefined = temporalClient(connection, config);
  done.catch((err: Error) => {
    client = undefined;
    logger.error({ err: err.message }, 'in-process automations worker failed');
  });
  logger.info({ taskQueues: workers.map((w) => w.options.taskQueue) }, 'in-process automations worker polling');
  return {
    eagerClient: () => client,
    async stop() {
      client = undefined;
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await done.catch(() => undefined);
    },
  };
}
