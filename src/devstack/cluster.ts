import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '../db/migrate';
import { createDb } from '../db/pool';
import { writeBundles } from '../../worker/bundle';
import { clusterPki, temporalTlsEnv, type ClusterPki } from './cluster-pki';
import { managedProcess, type ManagedProcess } from './managed-process';
import { freePort, portOpen } from './net';
import { startPrivatePostgres, type RunningPostgres } from './postgres';
import { setupNamespace, setupTemporalSchema, temporalServerProcess, temporalUiProcess } from './temporal-cluster';
import type { TemporalPersistence, TemporalServerPorts } from './temporal-cluster-config';
import { temporalServerBinaries, temporalUiServerBinary } from './temporal-server-build';

/** Where each part of the cluster listens; 0 for a worker's port or the UI: a free one. */
interface ClusterPorts {
  temporal: number;
  /** The Temporal UI; undefined: no UI. */
  ui?: number;
  apis: number[];
  /** One entry per worker process: its task queues, its /readyz port and its SDK metrics port. */
  workers: { queues: string; health: number; metrics: number }[];
  simulator: number;
  /** The vendor sandbox; undefined: none. */
  sandbox?: number;
}

export interface ClusterOptions {
  /** The cluster's own files: PKI, server and UI config, logs, the workflow bundle. */
  dir: string;
  /**
   * The private PostgreSQL cluster (dataDir, port) holding the app's and Temporal's databases, or a server's URL (the
   * app's database; its user creates Temporal's two beside it).
   */
  postgres: { dataDir: string; port: number; database: string } | { url: string };
  ports: ClusterPorts;
  namespace: string;
  /** The environment every api and worker process starts from (SWITCHBOARD_DATA_DIR there keeps one key ring). */
  env: NodeJS.ProcessEnv;
  /** A prebuilt workflow bundle; default: one built into dir. */
  bundlePath?: string;
  /** The carrier simulator's speed (1: calls last seconds). */
  simulatorSpeed?: number;
  /** The api's codec endpoint for the UI, given the first api's URL. */
  uiCodecEndpoint?: (apiUrl: string) => string | undefined;
  say: (line: string) => void;
}

/** The running topology; each process can be killed, stopped and started again (the fault test does). */
export interface RunningCluster {
  pki: ClusterPki;
  temporalAddress: string;
  databaseUrl: string;
  temporal: ManagedProcess;
  ui?: ManagedProcess;
  apis: ManagedProcess[];
  workers: ManagedProcess[];
  simulator: ManagedProcess;
  sandbox?: ManagedProcess;
  apiUrls: string[];
  simulatorUrl: string;
  sandboxUrl?: string;
  uiUrl?: string;
  /** The environment of the api and worker processes (TEMPORAL_* with the client certificate included). */
  processEnv: NodeJS.ProcessEnv;
  postgres(): RunningPostgres;
  /** Stops the private PostgreSQL (fast shutdown) and starts it again on the same data. */
  restartPostgres(): Promise<void>;
  /** Stops everything: apis and workers first, then the simulator, the sandbox, the UI, Temporal and PostgreSQL. */
  stop(): Promise<void>;
  /** SIGKILL to every process (PostgreSQL: immediate shutdown). */
  kill(): Promise<void>;
}

/** A free port below 32768: the server keeps membership ports in a smallint column. */
const freeMembershipPort = () => freePort({ below: 32_768 });

async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return res.ok;
}

const compiled = __filename.endsWith('.js');
const root = path.resolve(__dirname, '..', '..');
/**
 * node's arguments to run a script of ours as the main module: the compiled file in a build, the TypeScript one in a
 * checkout (through ts-node's register hook, set up by tsNodeEnv, so `require.main === module` holds).
 */
const script = (rel: string) => (compiled ? [path.join(root, `${rel}.js`)] : ['-r', 'ts-node/register', path.join(root, `${rel}.ts`)]);
const tsNodeEnv = compiled ? {} : { TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_SWC: 'true', TS_NODE_PROJECT: path.join(root, 'tsconfig.json') };

/**
 * `npm run cluster`'s topology on one machine: PostgreSQL, the Temporal server (schema, mTLS, namespace and search
 * attributes set up first), its UI, two or more api processes, workers split by task queue, the carrier simulator and
 * the vendor sandbox. Every process connects to Temporal with the TEMPORAL_* settings and the client certificate.
 */
export async function startCluster(o: ClusterOptions): Promise<RunningCluster> {
  const { say, ports } = o;
  const env = { ...o.env, ...tsNodeEnv };
  mkdirSync(o.dir, { recursive: true });
  const [bin, uiBinary] = [await temporalServerBinaries(say), ports.ui === undefined ? undefined : await temporalUiServerBinary(say)];
  const pki = await clusterPki(path.join(o.dir, 'pki'));

  const pgOptions = o.postgres;
  const startPostgres = async (): Promise<RunningPostgres> =>
    'url' in pgOptions
      ? { url: pgOptions.url, started: false, clusterDir: '', stop: async () => undefined, kill: async () => undefined }
      : startPrivatePostgres({ dataDir: pgOptions.dataDir, port: pgOptions.port, database: pgOptions.database, say });
  let pg = await startPostgres();
  const u = new URL(pg.url);
  const persistence: TemporalPersistence = {
    host: u.hostname,
    port: Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
  await setupTemporalSchema(bin, persistence);
  const db = createDb(pg.url, { max: 2 });
  await migrate(db).finally(() => db.close());

  const free = async (port: number) => port || (await freePort());
  const serverPorts: TemporalServerPorts = {
    frontend: ports.temporal,
    frontendHttp: await freePort(),
    frontendMembership: await freeMembershipPort(),
    history: await freePort(),
    historyMembership: await freeMembershipPort(),
    matching: await freePort(),
    matchingMembership: await freeMembershipPort(),
    worker: await freePort(),
    workerMembership: await freeMembershipPort(),
  };
  const temporalAddress = `127.0.0.1:${ports.temporal}`;
  const temporal = temporalServerProcess({ bin, dir: path.join(o.dir, 'temporal'), ports: serverPorts, db: persistence, pki });
  const parts: ManagedProcess[] = [];
  const stopAll = async () => {
    for (const group of [parts.filter((p) => /api|worker/.test(p.spec.name)), parts.filter((p) => !/api|worker/.test(p.spec.name))]) {
      await Promise.all(group.map((p) => p.stop().catch(() => undefined)));
    }
    await pg.stop();
  };
  try {
    parts.push(temporal);
    await temporal.start();
    const added = await setupNamespace(pki, temporalAddress, o.namespace);
    if (added.length) say(`search attributes registered: ${added.join(', ')}`);

    const bundlePath = o.bundlePath ?? path.join(o.dir, 'workflow-bundle.js');
    if (!o.bundlePath) await writeBundles(bundlePath, quiet);

    const simulatorUrl = `http://127.0.0.1:${await free(ports.simulator)}`;
    const simulator = managedProcess({
      name: 'the carrier simulator',
      command: process.execPath,
      cwd: root,
      args: [
        ...script('src/telephony/simulator/main'),
        '--port',
        new URL(simulatorUrl).port,
        '--host',
        '127.0.0.1',
        '--speed',
        String(o.simulatorSpeed ?? 1),
        '--state',
        path.join(o.dir, 'carrier-simulator.json'),
      ],
      env,
      logFile: path.join(o.dir, 'logs', 'simulator.log'),
      ready: () => portOpen('127.0.0.1', Number(new URL(simulatorUrl).port)),
    });
    parts.push(simulator);
    await simulator.start();
    let sandbox: ManagedProcess | undefined;
    let sandboxUrl: string | undefined;
    if (ports.sandbox !== undefined) {
      sandboxUrl = `http://127.0.0.1:${await free(ports.sandbox)}`;
      sandbox = managedProcess({
        name: 'the vendor sandbox',
        command: process.execPath,
        cwd: root,
        args: [...script('src/sandbox/main'), '--port', new URL(sandboxUrl).port, '--host', '127.0.0.1'],
        env,
        logFile: path.join(o.dir, 'logs', 'sandbox.log'),
        ready: () => portOpen('127.0.0.1', Number(new URL(sandboxUrl!).port)),
      });
      parts.push(sandbox);
      await sandbox.start();
    }

    const apiPorts = await Promise.all(ports.apis.map(free));
    const apiUrls = apiPorts.map((p) => `http://127.0.0.1:${p}`);
    const processEnv: NodeJS.ProcessEnv = {
      ...env,
      ...temporalTlsEnv(pki, temporalAddress, 'client'),
      TEMPORAL_NAMESPACE: o.namespace,
      // Registered above with operator rights: the processes' certificate need not have them.
      TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'false',
      DATABASE_URL: pg.url,
      HOST: '127.0.0.1',
      TELEPHONY_BASE_URL: simulatorUrl,
      // One api takes the provider's callbacks (as a load balancer's address would); calls recheck after its restart.
      TELEPHONY_CALLBACK_BASE_URL: apiUrls[0],
      VENDOR_SANDBOX_URL: sandboxUrl ?? 'off',
      WORKER_BUNDLE_PATH: bundlePath,
      LOG_FORMAT: 'json',
    };
    for (const key of [
      'TEMPORAL_API_KEY',
      'TEMPORAL_CONFIG_FILE',
      'TEMPORAL_PROFILE',
      'TEMPORAL_TLS_CLIENT_CERT_DATA',
      'TEMPORAL_TLS_CLIENT_KEY_DATA',
      'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
    ])
      delete processEnv[key];
    const workers = await Promise.all(
      ports.workers.map(async (w, i) => {
        const health = await free(w.health);
        return managedProcess({
          name: `worker ${i + 1} (${w.queues})`,
          command: process.execPath,
          cwd: root,
          args: script('worker/main'),
          env: { ...processEnv, WORKER_TASK_QUEUES: w.queues, WORKER_HEALTH_PORT: String(health), WORKER_METRICS_PORT: String(await free(w.metrics)) },
          logFile: path.join(o.dir, 'logs', `worker-${i + 1}.log`),
          ready: () => httpOk(`http://127.0.0.1:${health}/readyz`),
          readyTimeoutMs: 180_000,
          graceMs: 25_000,
        });
      }),
    );
    const apis = apiPorts.map((port, i) =>
      managedProcess({
        name: `api ${i + 1}`,
        command: process.execPath,
        cwd: root,
        args: script('src/api/main'),
        env: { ...processEnv, PORT: String(port) },
        logFile: path.join(o.dir, 'logs', `api-${i + 1}.log`),
        ready: () => httpOk(`${apiUrls[i]}/readyz`),
        readyTimeoutMs: 120_000,
      }),
    );
    parts.push(...apis, ...workers);
    // One at a time: on two cores, parallel TypeScript start-ups take longer than serial ones.
    for (const p of [...apis, ...workers]) await p.start();

    let ui: ManagedProcess | undefined;
    let uiUrl: string | undefined;
    if (uiBinary && ports.ui !== undefined) {
      const uiPort = await free(ports.ui);
      uiUrl = `http://127.0.0.1:${uiPort}`;
      ui = temporalUiProcess({
        binary: uiBinary,
        dir: path.join(o.dir, 'ui'),
        port: uiPort,
        frontend: temporalAddress,
        pki,
        namespace: o.namespace,
        codecEndpoint: o.uiCodecEndpoint?.(apiUrls[0]!),
      });
      parts.push(ui);
      await ui.start();
    }
    return {
      pki,
      temporalAddress,
      databaseUrl: pg.url,
      temporal,
      ui,
      apis,
      workers,
      simulator,
      sandbox,
      apiUrls,
      simulatorUrl,
      sandboxUrl,
      uiUrl,
      processEnv,
      postgres: () => pg,
      async restartPostgres() {
        if ('url' in pgOptions) throw new Error('PostgreSQL from DATABASE_URL is not ours to restart');
        await pg.stop();
        pg = await startPostgres();
      },
      stop: stopAll,
      async kill() {
        await Promise.all(parts.map((p) => p.kill()));
        await pg.kill();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };
