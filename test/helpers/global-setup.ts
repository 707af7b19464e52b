import { Connection } from '@temporalio/client';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { migrate } from '../../src/db/migrate';
import { createDb } from '../../src/db/pool';
import { ensureDatabase, startPrivatePostgres, type RunningPostgres } from '../../src/devstack/postgres';
import { resolveTemporalCli } from '../../src/devstack/temporal-cli';
import { startTemporalDevServer, type RunningTemporal } from '../../src/devstack/temporal-server';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { writeBundles } from '../../worker/bundle';
import { repoRoot, TEST_ENV } from './env';

declare global {
  // Shared with global-teardown (same process).
  var __switchboardTestStack: { pg?: RunningPostgres; temporal?: RunningTemporal } | undefined;
}

const say = (line: string) => process.stderr.write(`[test stack] ${line}\n`);

/**
 * Provides the real stack the tests run against: a Postgres database (DATABASE_URL's server, or the dev
 * stack's private cluster) and a Temporal dev server on its own port (TEST_TEMPORAL_PORT, default 7244),
 * reused when already running. Also builds the workflow bundle once for every test file.
 */
export default async function globalSetup(): Promise<void> {
  const config = loadConfig();
  const dataDir = config.SWITCHBOARD_DATA_DIR;
  const stack: NonNullable<typeof globalThis.__switchboardTestStack> = {};
  globalThis.__switchboardTestStack = stack;

  let databaseUrl: string;
  if (config.DATABASE_URL) {
    databaseUrl = await ensureDatabase(config.DATABASE_URL, 'switchboard_test');
  } else {
    stack.pg = await startPrivatePostgres({ dataDir, port: config.DEV_POSTGRES_PORT, database: 'switchboard_test', say });
    databaseUrl = stack.pg.url;
  }
  const db = createDb(databaseUrl, { max: 2 });
  await migrate(db);
  await db.close();

  const port = Number(process.env.TEST_TEMPORAL_PORT ?? 7244);
  stack.temporal = await startTemporalDevServer({
    cli: await resolveTemporalCli({ say }),
    host: '127.0.0.1',
    port,
    uiPort: port + 1000,
    namespace: 'default',
    headless: true,
  });

  const connection = await Connection.connect({ address: stack.temporal.address });
  await ensureSearchAttributes(connection, 'default').finally(() => connection.close());

  const bundleDir = path.join(repoRoot, '.cache');
  mkdirSync(bundleDir, { recursive: true });
  const bundlePath = path.join(bundleDir, 'test-workflow-bundle.js');
  await writeBundles(bundlePath, quietLogger);

  process.env[TEST_ENV.databaseUrl] = databaseUrl;
  process.env[TEST_ENV.temporalAddress] = stack.temporal.address;
  process.env[TEST_ENV.bundlePath] = bundlePath;
  say(`postgres ${stack.pg?.started ? 'started' : 'reused'}, temporal ${stack.temporal.started ? 'started' : 'reused'} at ${stack.temporal.address}`);
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };
