// Child process of bench/lead-lookup.ts: serves the real api and a bare Koa + pg handler on two loopback ports,
// so the load generator (the parent) never shares an event loop with either.
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import pino from 'pino';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/core/config';
import { createDb } from '../../src/db/pool';
import { createLogger } from '../../src/telemetry/log';
import { startTracing } from '../../src/telemetry/tracing';
import { connectTemporal } from '../../src/temporal/client';

/** What the parent passes in the environment. */
const env = (name: string) => process.env[name] ?? '';

async function listen(koa: Koa<any>): Promise<number> {
  const server = koa.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

async function main(): Promise<void> {
  // Off unless the parent set OTEL_* (bench/tracing.ts): as in the api process, before anything is made.
  startTracing('switchboard-api');
  const config = loadConfig({ ...process.env, DATABASE_URL: env('BENCH_DATABASE_URL'), TEMPORAL_ADDRESS: env('BENCH_TEMPORAL_ADDRESS'), PORT: '0' });
  // The app's own logger at LOG_LEVEL; stdout of this process is /dev/null, as a log shipper would be.
  const logger = createLogger(config.LOG_LEVEL, 'api', { buffered: true });
  const db = createDb(config.DATABASE_URL!, { max: config.DATABASE_POOL_MAX, logger });
  const temporal = await connectTemporal(config);
  const ours = await listen(createApp({ config, db, temporal, logger }).koa);

  // The baseline: the same indexed query, same pool size, and one log line per request at the same level.
  const workspaceId = env('BENCH_WORKSPACE_ID');
  const pool = new Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_MAX });
  const log = pino({ name: 'bare', level: config.LOG_LEVEL });
  const bare = new Koa();
  bare.use(async (ctx) => {
    const started = process.hrtime.bigint();
    // A prepared statement, as the api's lookup is: both sides ask Postgres for the same work (unnamed, planning
    // would cost Postgres ~110 µs more per lookup on the leads table's indexes, and the ratio would mostly show that).
    const { rows } = await pool.query({
      name: 'bare_lead_by_phone',
      text: `SELECT id, workspace_id, phone, first_name, last_name, email, company, timezone, tags, custom_fields, created_at, updated_at
       FROM leads WHERE workspace_id = $1 AND phone = $2`,
      values: [workspaceId, ctx.query.phone],
    });
    if (rows[0]) ctx.body = rows[0];
    else {
      ctx.status = 404;
      ctx.body = { status: 'failed', message: 'Lead not found' };
    }
    log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
  });
  const barePort = await listen(bare);
  process.send!({ ours, bare: barePort });
}

process.on('disconnect', () => process.exit(0));
// The parent asks for this process's CPU time around each measurement (µs of CPU per request, per side).
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
});
main().catch((err) => {
  process.stderr.write(`lead-lookup servers failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
