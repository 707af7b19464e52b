import { startApi } from '../main';
import type { Config } from '../config';
import { startPrivatePostgres, type RunningPostgres } from '../devstack/postgres';
import { resolveTemporalCli } from '../devstack/temporal-cli';
import { startTemporalDevServer, type RunningTemporal } from '../devstack/temporal-server';
import { createLogger } from '../log';
import { startWorker } from '../../worker/main';

const say = (line: string) => process.stderr.write(`[switchboard] ${line}\n`);

/** `npm start`: Postgres, the Temporal dev server, migrations, the api and a worker; Ctrl-C stops them all. */
export async function runDevStack(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, 'switchboard');
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => say(`stop failed: ${(err as Error).message}`));
  };
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    void stopAll().then(() => {
      say('stopped');
      process.exit(0);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    let pg: RunningPostgres | undefined;
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      pg = await startPrivatePostgres({ dataDir: config.SWITCHBOARD_DATA_DIR, port: config.DEV_POSTGRES_PORT, database: 'switchboard', say });
      stops.push(() => pg!.stop());
      databaseUrl = pg.url;
    }
    say(`PostgreSQL ${pg ? (pg.started ? 'started' : 'reused') : 'from DATABASE_URL'}`);

    const [host, port] = config.TEMPORAL_ADDRESS.split(':') as [string, string];
    const temporal: RunningTemporal = await startTemporalDevServer({
      cli: await resolveTemporalCli({ say }),
      host,
      port: Number(port),
      uiPort: config.TEMPORAL_UI_PORT,
      namespace: config.TEMPORAL_NAMESPACE,
      dataDir: config.SWITCHBOARD_DATA_DIR,
    });
    stops.push(() => temporal.stop());
    say(`Temporal ${temporal.started ? 'dev server started' : 'reused'} at ${temporal.address}`);

    const full = { ...config, DATABASE_URL: databaseUrl };
    const api = await startApi(full, { logger: logger.child({ component: 'api' }) });
    stops.push(() => api.close());
    const worker = await startWorker(full, { logger: logger.child({ component: 'worker' }) });
    stops.push(() => worker.shutdown());

    say('ready:');
    say(`  api           ${api.url}  (REST under ${api.url}/v1)`);
    say(`  openapi       ${api.url}/v1/openapi.json`);
    say(`  health        ${api.url}/healthz  ${api.url}/readyz  metrics ${api.url}/metrics`);
    say(`  temporal      ${temporal.address}${temporal.uiUrl ? `  UI ${temporal.uiUrl}` : ''}`);
    say(`  worker        task queues ${worker.workers.map((w) => w.options.taskQueue).join(', ')}; metrics http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`);
    say(`  postgres      ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}`);
    say('Create a demo workspace with `npx switchboard demo`. Ctrl-C stops everything.');
    await worker.done;
  } catch (err) {
    say(`failed: ${(err as Error).message}`);
    await stopAll();
    process.exit(1);
  }
}
