import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from '../../src/api/app';
import { loadConfig, type Config } from '../../src/core/config';
import { createDb, type Db } from '../../src/db/pool';
import { createApiKey } from '../../src/workspaces/db/api-keys';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import type { LatestJourneyVersions } from '../../src/journeys/latest-versions';
import { createLogger } from '../../src/telemetry/log';
import { connectNativeTemporal, connectTemporal, temporalClient } from '../../src/temporal/client';
import { startSimulator, type Simulator } from '../../src/telephony/simulator/server';
import { createWorkers } from '../../worker/workers';
import { testEnv } from './env';

export interface HttpResult {
  status: number;
  body: any;
  headers: Headers;
}

export interface TestApp {
  url: string;
  config: Config;
  db: Db;
  temporal: Awaited<ReturnType<typeof connectTemporal>>;
  workers: Worker[];
  /** The carrier simulator the api places calls through (startTestApp({ simulator: true })), with every Calls API request it got. */
  simulator?: Simulator & { requests: { method: string; path: string; headers: Record<string, unknown>; body: string }[] };
  /** The api's cache of latest journey versions (a test that imports a version waits until the api sees it). */
  journeyVersions: LatestJourneyVersions;
  /** A new workspace with an API key (and a superuser key when asked; else superuserKey is ''): every test gets its own tenant. */
  newWorkspace(opts?: { defaultRegion?: string; superuser?: boolean }): Promise<{ workspaceId: string; apiKey: string; superuserKey: string }>;
  request(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<HttpResult>;
  /** Starts the api's shutdown drain (as on SIGTERM): 503 for new requests, chat sockets closed with 1012. */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The test configuration: the stack global setup provides, a unique task-queue prefix, silent logs. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...process.env,
    DATABASE_URL: testEnv('databaseUrl'),
    TEMPORAL_ADDRESS: testEnv('temporalAddress'),
    TEMPORAL_TASK_QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    // Tests flood on purpose (fuzzing, 1,000 concurrent enrollments): the limiter counts but does not refuse;
    // test/e2e/rate-limits.test.ts sets real limits.
    RATE_LIMIT_PER_KEY: '1000000',
    RATE_LIMIT_PER_ADDRESS: '1000000',
    // Every test app logs in from 127.0.0.1, and the counters live in the test database that later runs reuse: one
    // shared address bucket would refuse logins once the suite ran twice within a window. Emails are new per test, so
    // the per-email limit stays real; test/e2e/automation-auth.test.ts sets a low per-address limit to prove that one.
    LOGIN_RATE_LIMIT_PER_ADDRESS: '1000000',
    // The same for new chats (connects to session/null count too); test/e2e/webchat-limits.test.ts sets a low one.
    WEBCHAT_SESSIONS_PER_ADDRESS: '1000000',
    ...overrides,
  });
}

/** Starts the api in-process on a free port against real Postgres and Temporal, with workers when asked. */
export async function startTestApp(
  opts: {
    workers?: boolean;
    config?: Record<string, string>;
    simulator?: boolean | { speed?: number };
    /** The api's and workers' logger (a test that reads the log lines it writes); else one at LOG_LEVEL. */
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  let simulator: TestApp['simulator'];
  const simConfig: Record<string, string> = {};
  if (opts.simulator) {
    const requests: NonNullable<TestApp['simulator']>['requests'] = [];
    const speed = typeof opts.simulator === 'object' ? (opts.simulator.speed ?? 20) : 20;
    const sim = await startSimulator({ authToken: testConfig().TWILIO_AUTH_TOKEN, speed, onRequest: (r) => requests.push(r) });
    simulator = Object.assign(sim, { requests });
    simConfig.TELEPHONY_BASE_URL = sim.url;
  }
  const config = testConfig({ ...simConfig, ...opts.config });
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'test');
  const db = createDb(config.DATABASE_URL!, { max: 10, logger });
  const temporal = await connectTemporal(config);
  // With in-process workers, automation runs start eagerly on them (as under `npm start`).
  let eagerClient: Client | undefined;
  const app = createApp({ config, db, temporal, logger, eagerClient: () => eagerClient });
  await app.startListeners();
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The provider calls back to this api: its port is known only now (the router and activities read it per use).
  if (simulator) config.TELEPHONY_CALLBACK_BASE_URL ??= url;

  let workers: Worker[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let nativeConnection: NativeConnection | undefined;
  if (opts.workers) {
    nativeConnection = await connectNativeTemporal(config);
    workers = await createWorkers({
      connection: nativeConnection,
      db,
      logger,
      config,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX,
      bundlePath: testEnv('bundlePath'),
      shutdownGraceMs: 2_000,
    });
    running = Promise.all(workers.map((w) => w.run()));
    eagerClient = temporalClient(nativeConnection, config);
  }

  return {
    url,
    config,
    db,
    temporal,
    workers,
    simulator,
    journeyVersions: app.journeyVersions,
    async newWorkspace(o = {}) {
      const ws = await createWorkspace(db, { name: `test ${randomBytes(3).toString('hex')}`, defaultRegion: o.defaultRegion });
      const { key } = await createApiKey(db, ws.id, { name: 'test' });
      const superuserKey = o.superuser ? (await createApiKey(db, ws.id, { name: 'test admin', superuser: true })).key : '';
      return { workspaceId: ws.id, apiKey: key, superuserKey };
    },
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      }
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON (metrics): keep the text.
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    drain: (graceMs) => app.drain(graceMs),
    async close() {
      eagerClient = undefined;
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running;
      await nativeConnection?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await app.close();
      await temporal.connection.close();
      await db.close();
      await simulator?.close();
    },
  };
}
