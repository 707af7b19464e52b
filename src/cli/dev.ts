import path from 'node:path';
import type { Client } from '@temporalio/client';
import { startApi, type RunningApi } from '../http/main';
import { publicUrls, voiceStreamUrl, type Config } from '../core/config';
import { CODEC_PATH, codecToken } from '../temporal/codec-endpoint';
import { startPrivatePostgres, type RunningPostgres } from '../devstack/postgres';
import { startSandboxProcess, type RunningSandbox } from '../devstack/sandbox';
import { startSimulatorProcess, type RunningSimulator } from '../devstack/simulator';
import { startVoiceProcess, type RunningVoiceProcess } from '../devstack/voice';
import { resolveTemporalCli } from '../devstack/temporal-cli';
import { startTemporalDevServer, type RunningTemporal } from '../devstack/temporal-server';
import { createLogger } from '../telemetry/log';
import { temporalClient } from '../temporal/client';
import { handleShutdownSignals } from '../core/shutdown';
import { startWorker, workerStopLimitMs, type RunningWorker } from '../../worker/main';

const say = (line: string) => process.stderr.write(`[switchboard] ${line}\n`);

/** The api's codec endpoint as the Web UI (which sends no credentials of its own) calls it: the token in the path. */
export function uiCodecEndpoint(config: Config): string | undefined {
  const token = codecToken(config);
  return token && `${publicUrls(config).integrations_url}${CODEC_PATH}/${token}`;
}

/** Raised inside start-up when a stop began meanwhile: start nothing more. */
class Stopping extends Error {}

/** Runs fn, but gives up waiting after ms (saying so): one stuck part must not hold up the others. */
async function within(what: string, ms: number, fn: (() => Promise<void>) | undefined): Promise<void> {
  if (!fn) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      say(`${what} did not stop within ${ms} ms; going on`);
      resolve();
    }, ms);
  });
  await Promise.race([fn().catch((err: Error) => say(`${what}: stop failed: ${err.message}`)), limit]);
  clearTimeout(timer);
}

/**
 * `npm start`: Postgres, the Temporal dev server, migrations, the api and a worker. Ctrl-C (or SIGTERM) stops
 * the api and the worker first, then Temporal and Postgres, which run in their own process groups so the
 * terminal's signal reaches them only through us; a second Ctrl-C, or a stop that hangs, kills them at once.
 */
export async function runDevStack(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, 'switchboard', { format: config.LOG_FORMAT });
  const parts: {
    pg?: RunningPostgres;
    temporal?: RunningTemporal;
    sim?: RunningSimulator;
    sandbox?: RunningSandbox;
    api?: RunningApi;
    worker?: RunningWorker;
    voice?: RunningVoiceProcess;
  } = {};
  let stopping = false;
  // Set once the worker runs: the api then starts automation runs eagerly on it (no server dispatch of the first task).
  let eagerClient: Client | undefined;
  let startup: Promise<void> = Promise.resolve();

  const stop = async () => {
    stopping = true;
    eagerClient = undefined;
    await startup.catch(() => undefined);
    const { pg, temporal, sim, sandbox, api, worker, voice } = parts;
    await Promise.all([
      within('the api', 5_000, api && (() => api.close())),
      within('the voice process', config.VOICE_DRAIN_MS + 5_000, voice && (() => voice.stop())),
      within('the worker', workerStopLimitMs(config), worker && (() => worker.shutdown())),
    ]);
    await Promise.all([
      within('Temporal', 8_000, temporal && (() => temporal.stop())),
      within('PostgreSQL', 15_000, pg && (() => pg.stop())),
      within('the carrier simulator', 3_000, sim && (() => sim.stop())),
      within('the vendor sandbox', 3_000, sandbox && (() => sandbox.stop())),
    ]);
  };
  const force = async () => {
    parts.voice?.kill();
    parts.temporal?.kill();
    parts.sim?.kill();
    parts.sandbox?.kill();
    await parts.pg?.kill();
  };
  const begin = handleShutdownSignals({ stop, force, watchdogMs: workerStopLimitMs(config) + 15_000, say });
  // Temporal runs in its own process group, so no terminal signal reaches it: however we exit, it goes too.
  process.once('exit', () => {
    parts.voice?.kill();
    parts.temporal?.kill();
    parts.sim?.kill();
    parts.sandbox?.kill();
  });

  const checkpoint = () => {
    if (stopping) throw new Stopping('stopped during start-up');
  };
  startup = (async () => {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      parts.pg = await startPrivatePostgres({ dataDir: config.SWITCHBOARD_DATA_DIR, port: config.DEV_POSTGRES_PORT, database: 'switchboard', say });
      databaseUrl = parts.pg.url;
    }
    say(`PostgreSQL ${parts.pg ? (parts.pg.started ? 'started' : 'reused') : 'from DATABASE_URL'}`);
    checkpoint();

    const [host, port] = config.TEMPORAL_ADDRESS.split(':') as [string, string];
    const cli = await resolveTemporalCli({ say });
    checkpoint();
    parts.temporal = await startTemporalDevServer({
      cli,
      host,
      port: Number(port),
      uiPort: config.TEMPORAL_UI_PORT,
      namespace: config.TEMPORAL_NAMESPACE,
      dataDir: config.SWITCHBOARD_DATA_DIR,
      ownProcessGroup: true,
      uiCodecEndpoint: uiCodecEndpoint(config),
    });
    say(`Temporal ${parts.temporal.started ? 'dev server started' : 'reused'} at ${parts.temporal.address}`);
    checkpoint();

    parts.sim = await startSimulatorProcess({
      baseUrl: config.TELEPHONY_BASE_URL,
      env: process.env,
      stateFile: path.join(config.SWITCHBOARD_DATA_DIR, 'carrier-simulator.json'),
    });
    if (parts.sim) say(`carrier simulator ${parts.sim.started ? 'started' : 'reused'} at ${parts.sim.url}`);
    checkpoint();

    parts.sandbox = await startSandboxProcess({ baseUrl: config.VENDOR_SANDBOX_URL, env: process.env });
    if (parts.sandbox) say(`vendor sandbox ${parts.sandbox.started ? 'started' : 'reused'} at ${parts.sandbox.url}`);
    checkpoint();

    const full = { ...config, DATABASE_URL: databaseUrl };
    // In a terminal, one line per successful request drowns everything else: those go to debug.
    parts.api = await startApi(full, { logger: logger.child({ component: 'api' }), requestLog: 'failures', eagerClient: () => eagerClient });
    checkpoint();
    // The voice process after the api (whose migrations it needs), in a process of its own: audio never waits for api work.
    parts.voice = await startVoiceProcess({ host: config.VOICE_HOST, port: config.VOICE_PORT, env: { ...process.env, DATABASE_URL: databaseUrl } });
    checkpoint();
    parts.worker = await startWorker(full, { logger: logger.child({ component: 'worker' }) });
    checkpoint();
    // `ready:` promises that work is picked up: wait until the server sees every worker poll.
    await parts.worker.polling;
    checkpoint();
    eagerClient = temporalClient(parts.worker.connection, config);
  })();

  try {
    await startup;
  } catch (err) {
    if (!(err instanceof Stopping)) {
      say(`failed: ${(err as Error).message}`);
      begin('start-up failed', 1);
    }
    return;
  }
  const { pg } = parts;
  const [api, worker, temporal] = [parts.api!, parts.worker!, parts.temporal!];
  say('ready:');
  say(`  api           ${api.url}  (REST under ${api.url}/v1)`);
  say(`  openapi       ${api.url}/v1/openapi.json`);
  say(`  health        ${api.url}/healthz  ${api.url}/readyz  metrics ${api.metricsUrl}`);
  say(`  temporal      ${temporal.address}${temporal.uiUrl ? `  UI ${temporal.uiUrl}` : ''}`);
  say(
    `  worker        task queues ${worker.workers.map((w) => w.options.taskQueue).join(', ')}; readyz ${worker.healthUrl}/readyz  metrics http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`,
  );
  if (parts.voice) say(`  voice         media streams ${voiceStreamUrl(config)}  readyz ${parts.voice.url}/readyz${parts.voice.started ? '' : ' (reused)'}`);
  if (parts.sim) say(`  telephony     carrier simulator ${parts.sim.url}  ledger ${parts.sim.url}/ledger`);
  else say(`  telephony     ${config.TELEPHONY_BASE_URL}`);
  if (parts.sandbox) say(`  vendors       sandbox ${parts.sandbox.url} (slack, hubspot, google_calendar)  ledger ${parts.sandbox.url}/ledger`);
  say(`  postgres      ${(config.DATABASE_URL ?? pg?.url ?? '').replace(/:[^:@/]+@/, ':***@')}${pg ? `  cluster ${pg.clusterDir}` : ''}`);
  say('Create a demo workspace with `npx switchboard demo`. Ctrl-C stops everything.');
  worker.done.then(
    () => {
      if (!stopping) begin('the worker stopped', 1);
    },
    (err: Error) => {
      if (!stopping) begin(`the worker failed (${err.message})`, 1);
    },
  );
}
