import type { Server } from 'node:http';
import { createApp } from './app';
import { loadConfigOrExit, type Config } from './config';
import { migrate } from './db/migrate';
import { createDb } from './db/pool';
import { createLogger, type Logger } from './log';
import { connectTemporal } from './temporal/client';
import { ensureSearchAttributes } from './temporal/search-attributes';

export interface RunningApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the api process: migrations, search attributes, then the HTTP server. */
export async function startApi(config: Config, opts: { logger?: Logger } = {}): Promise<RunningApi> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'api', { buffered: true });
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL: required by the api');
  const db = createDb(config.DATABASE_URL, { max: config.DATABASE_POOL_MAX, logger });
  const applied = await migrate(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const temporal = await connectTemporal(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  const added = await ensureSearchAttributes(temporal.connection, config.TEMPORAL_NAMESPACE);
  if (added.length) logger.info({ added }, 'search attributes registered');
  const app = createApp({ config, db, temporal, logger });
  await app.listen(config.DATABASE_URL);
  const server = app.koa.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  logger.info({ url }, 'api listening');
  return {
    server,
    url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await app.close();
      await temporal.connection.close();
      await db.close();
    },
  };
}

if (require.main === module) {
  startApi(loadConfigOrExit()).then(
    (api) => {
      const stop = () => void api.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
