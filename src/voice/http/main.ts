import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { voiceStreamUrl, type Config } from '../../core/config';
import { createDb, type Db } from '../../db/pool';
import { createLogger, type Logger } from '../../telemetry/log';
import { telephonyProviderFromConfig } from '../../telephony/from-config';
import type { TelephonyProvider } from '../../telephony/provider';
import { conversationRow } from '../db/context';
import { callTurns, upsertTurn } from '../db/turns';
import { describeEngines, enginesFor, modelEngines, type EngineRegistry, type SpeechEngines } from '../engine-registry';
import { settingsFor } from '../conversation';
import { STREAM_PATH, StreamServer, type Refusal } from './stream-server';
import { CallSession, type SessionSinks } from '../session';
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from '../settings';

export interface RunningVoice {
  /** http://host:port of the process (health: /healthz, /readyz). */
  url: string;
  /** Where this process takes media streams (ws://host:port/telephony/twilio/stream). */
  streamUrl: string;
  streams: StreamServer;
  /** The sessions alive now, by call id (tests read their state transitions). */
  sessions: Map<string, CallSession>;
  close(): Promise<void>;
}

export interface VoiceOptions {
  logger?: Logger;
  /**
   * The speech engines this process holds (the agent model engines are added from the configuration); their ready()
   * runs before the process listens, so /readyz never answers ready before them, and close() after the drain.
   */
  engines: SpeechEngines & { llm?: EngineRegistry['llm'] };
  /** Defaults under every agent's own settings (tests shorten the end-of-speech silence). */
  defaults?: Partial<VoiceSettings>;
  provider?: TelephonyProvider;
  onRefused?: (why: Refusal) => void;
}

/**
 * The voice process: Twilio Media Streams on its own event loop (audio never queues behind API work), with /healthz
 * and /readyz like the api. On stop it drains: /readyz answers 503, new streams are refused, and streams still open
 * after VOICE_DRAIN_MS are closed, so Twilio follows the TwiML's <Redirect> and another voice process resumes them.
 */
export async function startVoice(config: Config, opts: VoiceOptions): Promise<RunningVoice> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'voice', { format: config.LOG_FORMAT, buffered: true });
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL: required by the voice process');
  // The engines start here, once, off the call path: the speech worker loads its model, the Piper voice its weights.
  const started = performance.now();
  await opts.engines.ready?.().catch(async (err: Error) => {
    await opts.engines.close?.().catch(() => undefined);
    throw err;
  });
  const engineStartMs = Math.round(performance.now() - started);
  const db: Db = createDb(config.DATABASE_URL, { max: Math.min(config.DATABASE_POOL_MAX, 10), logger });
  const provider = opts.provider ?? telephonyProviderFromConfig(config);
  const registry: EngineRegistry = {
    vad: opts.engines.vad,
    vadName: opts.engines.vadName,
    stt: opts.engines.stt,
    tts: opts.engines.tts,
    llm: new Map([...modelEngines(config), ...(opts.engines.llm ?? [])]),
  };
  const engines = describeEngines(registry);
  const defaults = { ...DEFAULT_VOICE_SETTINGS, ...opts.defaults };
  const sessions = new Map<string, CallSession>();

  const streams = new StreamServer({
    config,
    db,
    logger,
    onRefused: opts.onRefused,
    async sessions(stream) {
      const row = await conversationRow(db, stream.call.id);
      if (!row) throw new Error('call not found');
      const settings = settingsFor(row, defaults);
      const engines = enginesFor(registry, settings);
      const stored = stream.resume ? await callTurns(db, stream.call.workspace_id, stream.call.id) : [];
      const log = logger.child({ callId: stream.call.id, streamSid: stream.streamSid });
      const sinks: SessionSinks = {
        turn: (t) => upsertTurn(db, stream.call.id, stream.call.workspace_id, t),
        milestone: (m) => log.info({ milestone: m.kind, ...('reason' in m ? { reason: m.reason } : {}) }, 'call milestone'),
        hangUp: () => provider.hangUpCall(stream.call.provider_sid ?? stream.callSid),
        log: (message, fields) => log.warn(fields ?? {}, message),
      };
      const session = new CallSession(stream, settings, engines, sinks, stored);
      sessions.set(stream.call.id, session);
      return {
        media: (pcm, at) => session.media(pcm, at),
        dtmf: (d, at) => session.dtmf(d, at),
        mark: (n) => session.mark(n),
        ended: (how) => {
          session.ended(how);
          if (sessions.get(stream.call.id) === session) sessions.delete(stream.call.id);
        },
      };
    },
  });

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { status: 'failed', message: `Method ${req.method} is not allowed` });
    if (path === '/healthz') return send(200, { status: 'success', message: 'ok' });
    if (path !== '/readyz') return send(404, { status: 'failed', message: `No route for ${req.method} ${path}` });
    if (streams.isDraining) return send(503, { status: 'failed', message: 'not ready: draining', streams: streams.streams });
    db.ping().then(
      () => send(200, { status: 'success', message: 'ready', streams: streams.streams, engines, checks: { postgres: 'ok' } }),
      () => send(503, { status: 'failed', message: 'not ready: postgres', checks: { postgres: 'unreachable' } }),
    );
  });
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== STREAM_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    streams.upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.VOICE_PORT, config.VOICE_HOST, resolve);
  }).catch(async (err: Error) => {
    await Promise.all([db.close(), opts.engines.close?.()]);
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const host = config.VOICE_HOST === '0.0.0.0' || config.VOICE_HOST === '::' ? '127.0.0.1' : config.VOICE_HOST;
  const url = `http://${host}:${port}`;
  logger.info(
    {
      url,
      streamUrl: voiceStreamUrl(config),
      vad: registry.vadName,
      engines,
      engineStartMs,
    },
    'voice listening',
  );
  return {
    url,
    streamUrl: `ws://${host}:${port}${STREAM_PATH}`,
    streams,
    sessions,
    async close() {
      await streams.drain(config.VOICE_DRAIN_MS);
      await Promise.all([...sessions.values()].map((s) => s.flushed()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([db.close(), opts.engines.close?.()]);
    },
  };
}
