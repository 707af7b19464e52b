// Child process of bench/import.ts: serves the real api (no workers), and answers 'memory' with its memory (no GC first: the peak is what counts).
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/core/config';
import { createDb } from '../../src/db/pool';
import { createLogger } from '../../src/telemetry/log';
import { connectTemporal } from '../../src/temporal/client';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: process.env.BENCH_DATABASE_URL, TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS, PORT: '0' });
  const logger = createLogger(config.LOG_LEVEL, 'api', { buffered: true });
  const db = createDb(config.DATABASE_URL!, { max: config.DATABASE_POOL_MAX, logger });
  const app = createApp({ config, db, temporal: await connectTemporal(config), logger });
  await app.startListeners();
  const server = app.koa.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  process.send!({ port: (server.address() as AddressInfo).port });
}

process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m !== 'memory') return;
  process.send!({ memory: process.memoryUsage() });
});
main().catch((err) => {
  process.stderr.write(`import bench server failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
