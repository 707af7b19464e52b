// Child process of bench/enroll.ts: serves the real api (no workers), so the load generator never shares its event loop.
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/core/config';
import { createDb, type Db } from '../../src/db/pool';
import { createLogger } from '../../src/telemetry/log';
import { startTracing } from '../../src/telemetry/tracing';
import { connectTemporal } from '../../src/temporal/client';

async function main(): Promise<void> {
  // Off unless the parent set OTEL_* (bench/tracing.ts): as in the api process, before anything is made.
  startTracing('switchboard-api');
  const config = loadConfig({ ...process.env, DATABASE_URL: process.env.BENCH_DATABASE_URL, TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS, PORT: '0' });
  const logger = createLogger(config.LOG_LEVEL, 'api', { buffered: true });
  const db = counted(createDb(config.DATABASE_URL!, { max: config.DATABASE_POOL_MAX, logger }));
  const temporal = await connectTemporal(config);
  const app = createApp({ config, db, temporal, logger });
  await app.startListeners();
  const server = app.koa.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.keepAliveTimeout = 120_000; // idle keep-alive sockets between rounds must not be closed under the load generator
  process.send!({ port: (server.address() as AddressInfo).port });
}

let statements = 0;
/** The pool, counting the statements the api sends through it (the bench reports them per enrollment). */
function counted(db: Db): Db {
  return {
    ...db,
    pool: db.pool,
    query: (text, params) => (statements++, db.query(text, params)),
    one: (text, params) => (statements++, db.one(text, params)),
  };
}

process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage(), statements });
});
main().catch((err) => {
  process.stderr.write(`enroll bench server failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
