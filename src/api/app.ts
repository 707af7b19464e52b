import Router from '@koa/router';
import { ServerResponse, type Server } from 'node:http';
import Koa, { type Middleware } from 'koa';
import type { Registry } from 'prom-client';
import websockify from 'koa-websocket';
import { automationAuth } from '../auth/http/automation-auth';
import { nocodeAuth } from '../auth/http/nocode-auth';
import { keyOrUserAuth } from '../auth/http/key-or-user';
import { createJwtAuthority, type JwtAuthority } from '../auth/jwt';
import { createLoginLimits } from '../auth/login-limits';
import { publicUrls } from '../core/config';
import type { AppDeps } from '../http/deps';
import { apiKeyAuth, ApiKeyResolver, optionalApiKeyAuth } from '../auth/http/api-key-auth';
import { createDraining } from '../http/middleware/draining';
import { answerClientErrorsInShape } from '../http/client-error';
import { allowedMethods } from '../http/middleware/allowed-methods';
import { errorHandler } from '../http/middleware/errors';
import { exactRoutes } from '../http/exact-routes';
import { createHttpMetrics } from '../http/middleware/metrics';
import { registerBusinessMetrics } from '../telemetry/business-metrics';
import { createRateLimits } from '../http/middleware/rate-limit';
import { requestContext, type RequestLog } from '../http/middleware/request-context';
import { mountRoutes } from '../http/mount';
import { buildOpenApi } from '../http/openapi';
import { buildAsyncApi } from '../chat/http/asyncapi';
import { LatestJourneyVersions } from '../journeys/latest-versions';
import { routes } from './routes';
import { automationRoutes } from '../automation/http/automation';
import { mountAutomationRoutes } from '../automation/http/automation-mount';
import { systemRouter, systemRoutes } from './routes/system';
import { temporalCodecRouter } from './routes/temporal-codec';
import { telephonyRouter } from '../telephony/http/telephony';
import { webchatRoutes } from '../chat/http/webchat';
import { webchatPageRoutes } from '../chat/http/webchat-pages';
import { CLOSE, MAX_FRAME_BYTES } from '../chat/webchat/frames';
import { webchatPreflight } from '../chat/http/cors';
import { ChatSockets } from '../chat/webchat/sockets';
import type { AppState } from '../http/state';
import { serverSpans } from '../telemetry/http-server';
import { tracingOn } from '../telemetry/tracing';

export interface App {
  koa: Koa<AppState>;
  keys: ApiKeyResolver;
  /** Issues and verifies user JWTs (login, automation auth). */
  jwt: JwtAuthority;
  journeyVersions: LatestJourneyVersions;
  /** Starts the caches' change listeners (api keys, journey versions). */
  startListeners(): Promise<void>;
  /** The open chat WebSockets. */
  chat: ChatSockets;
  /** The Prometheus registry /metrics serves (requests, process, business metrics). */
  metrics: Registry;
  /**
   * Refuses new requests with 503 and answers in-flight ones (503 after graceMs); resolves when all are answered.
   * Chat sockets are closed with 1012 so their clients reconnect (r/true) to another instance.
   */
  drain(graceMs: number): Promise<void>;
  /** Listens like koa.listen, with malformed requests (rejected before Koa) answered in the error shape. */
  listen(port: number, host: string): Server;
  close(): Promise<void>;
}

/** Builds the api (no listen): system routes, the OpenAPI document and every /v1 route. */
/** What createApp is handed: the deps its routes get, less the services it builds when none are given. */
export type AppInput = Omit<AppDeps, 'journeyVersions' | 'auth'> & { journeyVersions?: LatestJourneyVersions };

export function createApp(input: AppInput, opts: { requestLog?: RequestLog } = {}): App {
  const journeyVersions = input.journeyVersions ?? new LatestJourneyVersions();
  const deps: AppDeps = { ...input, journeyVersions };
  const limits = createRateLimits(deps, deps.config);
  const newChats = { name: 'webchat', limit: deps.config.WEBCHAT_SESSIONS_PER_ADDRESS };
  const chat: ChatSockets = new ChatSockets(deps, {
    // Koa's own reading of the address (X-Forwarded-For only with TRUST_PROXY), as for every HTTP request.
    address: (req): string => koa.createContext(req, new ServerResponse(req)).ip,
    // A new conversation counts as a key-less POST /webchat/session does.
    count: (address, newConversation) => limits.countAddress(address, newConversation ? newChats : undefined),
  });
  // The chat WebSocket shares the api's server and port; ws closes frames over 64 KiB with 1009.
  const koa = websockify(new Koa<AppState>({ proxy: deps.config.TRUST_PROXY }), { maxPayload: MAX_FRAME_BYTES, verifyClient: chat.verifyClient });
  koa.ws.use((ctx) => chat.accept(ctx.websocket, ctx.req));
  const metrics = createHttpMetrics();
  const keys = new ApiKeyResolver(deps.db, deps.logger);
  const draining = createDraining();
  const jwt = createJwtAuthority(deps.config);
  const loginLimits = createLoginLimits(deps, deps.config);
  registerBusinessMetrics(metrics.registry, {
    db: deps.db,
    chatSockets: () => chat.size,
    rateLimited: () => ({ ...limits.refusals(), ...loginLimits.refusals() }),
  });

  const api = new Router<AppState>();
  const system = systemRoutes(deps.config, metrics.registry);
  const openapi = buildOpenApi([...routes, ...automationRoutes, ...webchatRoutes, ...webchatPageRoutes, ...system], publicUrls(deps.config));
  api.get('/v1/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  const asyncapi = buildAsyncApi(publicUrls(deps.config).wss_url);
  api.get('/v1/asyncapi.json', (ctx) => {
    ctx.body = asyncapi;
  });
  const guardAutomation = automationAuth({ db: deps.db, jwt, keys });
  mountRoutes(
    api,
    routes,
    {
      apiKey: [apiKeyAuth(keys), limits.perKey],
      automation: [guardAutomation, limits.perKey],
      nocode: [nocodeAuth({ db: deps.db, jwt, keys }), limits.perKey],
      keyOrUser: [keyOrUserAuth({ db: deps.db, jwt, keys }), limits.perKey],
      none: [],
    },
    { ...deps, auth: { jwt, loginLimits } },
  );
  // The automation endpoint's routes answer every refusal in the 4.6 envelope (their own mount).
  mountAutomationRoutes(api, automationRoutes, [limits.perAddressInEnvelope, guardAutomation, limits.perKey], deps);
  // Chat sessions: a server calling with its key counts against the key (one address serves all its visitors).
  const sessionsPerAddress = limits.perAddressOf(newChats.name, newChats.limit);
  const sessionLimit: Middleware<AppState> = (ctx, next) => (ctx.state.auth ? limits.perKey(ctx, next) : sessionsPerAddress(ctx, next));
  mountRoutes(api, webchatRoutes, { optionalApiKey: [optionalApiKeyAuth(keys), sessionLimit] }, deps);
  mountRoutes(api, webchatPageRoutes, { apiKey: [], automation: [], none: [] }, deps);

  // Outermost, so the request's log line and everything it starts (queries, workflows) are in its trace.
  if (tracingOn()) koa.use(serverSpans());
  koa.use(requestContext(deps.logger, opts.requestLog));
  koa.use(metrics.middleware);
  koa.use(draining.middleware);
  koa.use(errorHandler());
  koa.use(limits.perAddress);
  // Requests for a route spelled exactly as registered skip the routers below (see exactRoutes).
  koa.use(exactRoutes(api));
  koa.use(allowedMethods());
  koa.use(webchatPreflight());
  koa.use(systemRouter(deps, system).routes());
  koa.use(telephonyRouter(deps).routes());
  koa.use(temporalCodecRouter(deps.config).routes());
  koa.use(api.routes());

  return {
    koa,
    keys,
    jwt,
    journeyVersions,
    chat,
    metrics: metrics.registry,
    async startListeners() {
      await Promise.all([keys.listen(), journeyVersions.listen(deps.db)]);
    },
    drain(graceMs) {
      chat.closeAll(CLOSE.restart, 'Server restarting, reconnect');
      return draining.begin(graceMs);
    },
    listen(port, host) {
      const server = koa.listen(port, host);
      answerClientErrorsInShape(server);
      // Upgraded sockets keep server.close() waiting: whoever closes the server closes the chats first.
      const close = server.close.bind(server);
      server.close = (cb) => {
        chat.closeAll(CLOSE.goingAway, 'Server shutting down, reconnect');
        return close(cb);
      };
      return server;
    },
    async close() {
      await Promise.all([keys.close(), journeyVersions.close(), limits.close(), loginLimits.close()]);
    },
  };
}
