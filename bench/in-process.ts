// The service's parts inside the bench process, as several benchmarks set them up: config, a throwaway workspace, the
// api on an ephemeral port and the workers, each cleaned up through ctx.defer.
import type { Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../src/core/config';
import type { Db } from '../src/db/pool';
import { createApp } from '../src/api/app';
import type { AppInput } from '../src/api/app';
import { createWorkspace } from '../src/workspaces/db/workspaces';
import { connectNativeTemporal } from '../src/temporal/client';
import type { TaskQueueKind } from '../src/temporal/task-queues';
import type { Logger } from '../src/telemetry/log';
import { createWorkers } from '../worker/workers';
import type { BenchContext } from './lib';

/** The config of the bench's in-process api and workers: the environment, the bench's servers, task queues under prefix, warn logs. */
export const benchConfig = (ctx: BenchContext, databaseUrl: string, prefix: string, extra: NodeJS.ProcessEnv = {}): Config =>
  loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: ctx.temporal.address,
    TEMPORAL_NAMESPACE: ctx.temporal.namespace,
    TEMPORAL_TASK_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    // The limiter counts every request (its cost is measured) but refuses none: its counter is shared through Postgres,
    // so the requests of a benchmark run just before would otherwise count against this one.
    RATE_LIMIT_PER_KEY: '1000000000',
    RATE_LIMIT_PER_ADDRESS: '1000000000',
    ...extra,
  });

/** A workspace named `bench <what> <random>` (plus fields), deleted with everything in it at the end. */
export async function benchWorkspace(db: Db, ctx: BenchContext, what: string, fields: { timezone?: string } = {}) {
  const ws = await createWorkspace(db, { name: `bench ${what} ${randomBytes(3).toString('hex')}`, ...fields });
  ctx.defer(() => db.query('DELETE FROM workspaces WHERE id = $1', [ws.id]).then(() => undefined));
  return ws;
}

/** The api (createApp) on 127.0.0.1 and an ephemeral port, closed at the end; its port. */
export async function listenApp(ctx: BenchContext, deps: AppInput): Promise<number> {
  const app = createApp(deps);
  await app.startListeners();
  ctx.defer(() => app.close());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  ctx.defer(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return (server.address() as AddressInfo).port;
}

/**
 * The service's workers in this process on config's task queues (all, or kinds), on a native connection of their own
 * and the workflows bundled once at their start (traced only when tracing is on, as a worker process); shut down with a
 * 1 s grace at the end.
 */
export async function runServiceWorkers(
  ctx: BenchContext,
  deps: { config: Config; db: Db; logger: Logger },
  o: { kinds?: readonly TaskQueueKind[] } = {},
): Promise<void> {
  const native = await connectNativeTemporal(deps.config);
  ctx.defer(() => native.close());
  const workers = await createWorkers({
    connection: native,
    ...deps,
    namespace: ctx.temporal.namespace,
    taskQueuePrefix: deps.config.TEMPORAL_TASK_QUEUE_PREFIX,
    kinds: o.kinds,
    shutdownGraceMs: 1000,
  });
  runWorkers(ctx, workers);
}

/** Runs the workers until the end, when they are shut down and awaited (then `after`, e.g. closing their connection). */
export function runWorkers(ctx: BenchContext, workers: Worker[], after?: () => Promise<void>): void {
  const running = Promise.all(workers.map((w) => w.run()));
  ctx.defer(async () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await running;
    await after?.();
  });
}
