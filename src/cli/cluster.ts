import path from 'node:path';
import type { Config } from '../core/config';
import { startCluster, type RunningCluster } from '../devstack/cluster';
import { handleShutdownSignals } from '../core/shutdown';
import { uiCodecEndpoint } from './dev';

const say = (line: string) => process.stderr.write(`[cluster] ${line}\n`);

const portOf = (url: string | undefined, fallback: number) => (url ? Number(new URL(url).port) || fallback : fallback);

/**
 * `npm run cluster`: the production shape on one machine (see src/devstack/cluster.ts), on DATABASE_URL's PostgreSQL or
 * the dev stack's, and its data folder (so `switchboard demo` and the key ring are the same), until Ctrl-C.
 */
export async function runCluster(config: Config): Promise<void> {
  const dir = path.join(config.SWITCHBOARD_DATA_DIR, 'cluster');
  let cluster: RunningCluster | undefined;
  let starting: Promise<unknown> = Promise.resolve();
  const begin = handleShutdownSignals({
    stop: async () => {
      await starting.catch(() => undefined);
      await cluster?.stop();
    },
    force: () => cluster?.kill(),
    watchdogMs: config.WORKER_SHUTDOWN_GRACE_MS + 60_000,
    say,
  });
  const apiPort = config.PORT;
  const start = startCluster({
    dir,
    postgres: config.DATABASE_URL
      ? { url: config.DATABASE_URL }
      : { dataDir: config.SWITCHBOARD_DATA_DIR, port: config.DEV_POSTGRES_PORT, database: 'switchboard' },
    ports: {
      temporal: Number(config.TEMPORAL_ADDRESS.split(':')[1]),
      ui: config.TEMPORAL_UI_PORT,
      apis: [apiPort, apiPort + 1],
      workers: [
        { queues: 'journeys,calls', health: config.WORKER_HEALTH_PORT, metrics: config.WORKER_METRICS_PORT },
        { queues: 'automations,chat', health: config.WORKER_HEALTH_PORT + 2, metrics: config.WORKER_METRICS_PORT + 2 },
      ],
      simulator: portOf(config.TELEPHONY_BASE_URL, 3079),
      sandbox: config.VENDOR_SANDBOX_URL ? portOf(config.VENDOR_SANDBOX_URL, 3078) : undefined,
    },
    namespace: config.TEMPORAL_NAMESPACE,
    env: { ...process.env, SWITCHBOARD_DATA_DIR: config.SWITCHBOARD_DATA_DIR },
    uiCodecEndpoint: () => uiCodecEndpoint({ ...config, PORT: apiPort }),
    say,
  });
  starting = start;
  try {
    cluster = await start;
  } catch (err) {
    say(`failed: ${(err as Error).message}`);
    begin('start-up failed', 1);
    return;
  }
  const c = cluster;
  const tls = c.processEnv;
  say('ready:');
  c.apiUrls.forEach((url, i) => say(`  api ${i + 1}         ${url}  (REST under ${url}/v1; readyz ${url}/readyz)`));
  say(`  temporal      ${c.temporalAddress}  (Temporal server, mTLS; ${path.join(dir, 'temporal')})${c.uiUrl ? `  UI ${c.uiUrl}` : ''}`);
  c.workers.forEach((w) => say(`  ${w.spec.name.padEnd(40)}readyz http://127.0.0.1:${w.spec.env.WORKER_HEALTH_PORT}/readyz`));
  say(`  telephony     carrier simulator ${c.simulatorUrl}  ledger ${c.simulatorUrl}/ledger`);
  if (c.sandboxUrl) say(`  vendors       sandbox ${c.sandboxUrl}  ledger ${c.sandboxUrl}/ledger`);
  say(`  postgres      ${c.databaseUrl.replace(/:[^:@/]+@/, ':***@')}  (Temporal: databases temporal, temporal_visibility)`);
  say(
    `  certificates  CA ${tls.TEMPORAL_TLS_SERVER_CA_CERT_PATH}; client ${tls.TEMPORAL_TLS_CLIENT_CERT_PATH} (key beside it); operator ${c.pki.operatorCert}`,
  );
  say(`  logs          ${path.join(dir, 'logs')}, ${path.join(dir, 'temporal', 'temporal-server.log')}`);
  say('Create a demo workspace with `npx switchboard demo`. Ctrl-C stops everything.');
}
