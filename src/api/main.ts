import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import { createApp } from './app';
import { loadConfigOrExit, type Config } from '../core/config';
import { keyringFromConfig } from '../crypto/keyring';
import type { AppDeps } from '../http/deps';
import { migrate } from '../db/migrate';
import { sealLegacyWebhookSecrets } from '../webhooks/db/webhook-secrets';
import { createDb } from '../db/pool';
import { errorHandler } from '../http/middleware/errors';
import type { RequestLog } from '../http/middleware/request-context';
import { metricsRoute } from './routes/system';
import { createLogger, type Logger } from '../telemetry/log';
import { recheckOpenCalls } from '../calls/recheck';
import { handleShutdownSignals } from '../core/shutdown';
import { connectTemporal } from '../temporal/client';
import { registerSearchAttributesAtStart } from '../temporal/search-attributes';
import { startInProcessAutomationWorker } from '../../worker/in-process';
import { currentTracing, startTracing } from '../telemetry/tracing';

export interface RunningApi {
  server: Server;
  url: string;
  /** Where /metrics is served: the api's own port, or METRICS_PORT's listener. */
  metricsUrl: string;
  close(): Promise<void>;
}

/** Starts the api process: migrations, search attributes, then the HTTP server. */
export async function startApi(
  config: Config,
  opts: { logger?: Logger; requestLog?: RequestLog; eagerClient?: AppDeps['eagerClient'] } = {},
): Promise<RunningApi> {
  startTracing('switchboard-api');
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'api', { format: config.LOG_FORMAT, buffered: true });
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL: required by the api');
  const db = createDb(config.DATABASE_URL, { max: config.DATABASE_POOL_MAX, logger });
  const applied = await migrate(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const sealed = await sealLegacyWebhookSecrets(db, keyringFromConfig(config));
  if (sealed) logger.info({ workspaces: sealed }, 'plaintext webhook secrets sealed');
  const temporal = await connectTemporal(config);
  const added = await registerSearchAttributesAtStart(config, async () => temporal.connection);
  if (added.length) logger.info({ added }, 'search attributes registered');
  const inProcess = config.API_AUTOMATION_WORKER ? await startInProcessAutomationWorker(config, db, logger) : undefined;
  const app = createApp({ config, db, temporal, logger, eagerClient: opts.eagerClient ?? inProcess?.eagerClient }, { requestLog: opts.requestLog });
  await app.startListeners();
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  const metrics = config.METRICS_PORT === undefined ? undefined : await listenForMetrics(app.metrics, config);
  const metricsUrl = metrics?.url ?? `${url}/metrics`;
  logger.info({ url, metricsUrl }, 'api listening');
  const exposed = metricsExposure(config);
  if (exposed) logger[exposed.level](exposed.message);
  // Callbacks the provider sent while this api was down are lost: calls in flight read their state from it instead.
  recheckOpenCalls(db, temporal.client, logger).then(
    (asked) => asked && logger.info({ calls: asked }, 'calls in flight asked to recheck the provider'),
    (err: Error) => logger.warn({ err: err.message }, 'calls in flight not rechecked'),
  );
  return {
    server,
    url,
    metricsUrl,
    async close() {
      metrics?.server.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await app.drain(DRAIN_GRACE_MS);
      // Drained answers carry Connection: close, so their sockets end once written; what is left is cut.
      await Promise.race([closed, sleep(500)]);
      server.closeAllConnections();
      await closed;
      await app.close();
      await inProcess?.stop();
      await temporal.connection.close();
      await db.close();
      await currentTracing()?.shutdown();
    },
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/**
 * What start-up says when /metrics answers anyone on the api's own port (no METRICS_PORT, no METRICS_TOKEN): a warning
 * when that port listens beyond loopback, a note otherwise (docs/operations-security.md).
 */
export function metricsExposure(config: Pick<Config, 'METRICS_PORT' | 'METRICS_TOKEN' | 'HOST'>): { level: 'warn' | 'info'; message: string } | undefined {
  if (config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined) return undefined;
  const local = LOOPBACK.test(config.HOST);
  return {
    level: local ? 'info' : 'warn',
    message:
      `/metrics is served without a token on the api's port (HOST ${config.HOST}): ${local ? 'only this machine reaches it' : 'anyone who reaches the api reads it'}; ` +
      'set METRICS_PORT (a listener of its own) or METRICS_TOKEN (see docs/operations-security.md)',
  };
}

/** /metrics on a listener of its own (METRICS_PORT on METRICS_HOST), so the public port need not expose it. */
async function listenForMetrics(registry: Registry, config: Config): Promise<{ server: Server; url: string }> {
  const koa = new Koa();
  koa.use(errorHandler());
  koa.use((ctx, next) => (ctx.method === 'GET' && ctx.path === '/metrics' ? metricsRoute(registry, config.METRICS_TOKEN)(ctx, next) : next()));
  const server = koa.listen(config.METRICS_PORT, config.METRICS_HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  return { server, url: `http://${config.METRICS_HOST === '0.0.0.0' ? '127.0.0.1' : config.METRICS_HOST}:${port}/metrics` };
}

/** How long in-flight requests get to finish once the api stops; then they are answered 503. */
const DRAIN_GRACE_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

if (require.main === module) {
  startApi(loadConfigOrExit()).then(
    (api) => {
      handleShutdownSignals({ stop: () => api.close(), watchdogMs: 15_000, say: (line) => process.stderr.write(`[api] ${line}\n`) });
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
