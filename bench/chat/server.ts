// Child process of bench/chat.ts: the real api with the chat workers (or without: BENCH_WORKERS=0), so the load
// generator never shares its event loop.
import type { AddressInfo } from 'node:net';
import { writeHeapSnapshot } from 'node:v8';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/core/config';
import { createDb } from '../../src/db/pool';
import { createLogger } from '../../src/telemetry/log';
import { connectNativeTemporal, connectTemporal } from '../../src/temporal/client';
import { createWorkers } from '../../worker/workers';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: process.env.BENCH_DATABASE_URL, TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS, PORT: '0' });
  const logger = createLogger(config.LOG_LEVEL, 'api', { buffered: true });
  const db = createDb(config.DATABASE_URL!, { max: config.DATABASE_POOL_MAX, logger });
  const temporal = await connectTemporal(config);
  // BENCH_WORKERS=0: the api alone, as deployed (its workflows' workers run in another process).
  if (process.env.BENCH_WORKERS !== '0') {
    const connection = await connectNativeTemporal(config);
    const workers = await createWorkers({
      connection,
      db,
      logger,
      config,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX,
    });
    for (const w of workers) void w.run();
  }
  const app = createApp({ config, db, temporal, logger });
  await app.startListeners();
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  process.send!({ port: (server.address() as AddressInfo).port });
  process.on('message', (m) => {
    if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
    const snapshot = (m as { snapshot?: string } | null)?.snapshot;
    if (snapshot) {
      global.gc?.();
      process.send!({ snapshot: writeHeapSnapshot(snapshot) && snapshot });
    }
    if (m === 'memory') {
      global.gc?.();
      global.gc?.();
      process.send!({ memory: process.memoryUsage(), sockets: app.chat.size });
    }
  });
}

process.on('disconnect', () => process.exit(0));
main().catch((err) => {
  process.stderr.write(`chat bench server failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
