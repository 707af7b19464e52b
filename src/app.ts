import Router from '@koa/router';
import type { Server } from 'node:http';
import Koa from 'koa';
import { automationAuth } from './auth/automation-auth';
import { createJwtAuthority, type JwtAuthority } from './auth/jwt';
import { createLoginLimits } from './auth/login-limits';
import { publicUrls } from './config';
import type { AppDeps } from './deps';
import { apiKeyAuth, ApiKeyResolver } from './http/auth';
import { createDraining } from './http/middleware/draining';
import { answerClientErrorsInShape } from './http/client-error';
import { allowedMethods } from './http/middleware/allowed-methods';
import { errorHandler } from './http/middleware/errors';
import { createHttpMetrics } from './http/middleware/metrics';
import { createRateLimits } from './http/middleware/rate-limit';
import { requestContext, type RequestLog } from './http/middleware/request-context';
import { mountRoutes } from './http/mount';
import { buildOpenApi } from './http/openapi';
import { LatestJourneyVersions } from './journeys/latest-versions';
import { routes } from './http/routes';
import { automationRoutes } from './http/routes/automation';
import { mountAutomationRoutes } from './http/automation-mount';
import { systemRouter } from './http/routes/system';
import type { AppState } from './http/state';

export interface App {
  koa: Koa<AppState>;
  keys: ApiKeyResolver;
  /** Issues and verifies user JWTs (login, automation auth). */
  jwt: JwtAuthority;
  journeyVersions: LatestJourneyVersions;
  /** Starts the caches' change listeners (api keys, journey versions). */
  startListeners(): Promise<void>;
  /** Refuses new requests with 503 and answers in-flight ones (503 after graceMs); resolves when all are answered. */
  drain(graceMs: number): Promise<void>;
  /** Listens like koa.listen, with malformed requests (rejected before Koa) answered in the error shape. */
  listen(port: number, host: string): Server;
  close(): Promise<void>;
}

/** Builds the api (no listen): system routes, the OpenAPI document and every /v1 route. */
export function createApp(deps: AppDeps, opts: { requestLog?: RequestLog } = {}): App {
  const koa = new Koa<AppState>({ proxy: deps.config.TRUST_PROXY });
  const metrics = createHttpMetrics();
  const keys = new ApiKeyResolver(deps.db, deps.logger);
  const draining = createDraining();
  const limits = createRateLimits(deps, deps.config);
  const journeyVersions = deps.journeyVersions ?? new LatestJourneyVersions();
  const jwt = createJwtAuthority(deps.config);
  const loginLimits = createLoginLimits(deps, deps.config);

  koa.use(requestContext(deps.logger, opts.requestLog));
  koa.use(metrics.middleware);
  koa.use(draining.middleware);
  koa.use(errorHandler());
  koa.use(limits.perAddress);
  koa.use(allowedMethods());

  const system = systemRouter(deps, metrics.registry);
  koa.use(system.routes());

  const api = new Router<AppState>();
  const openapi = buildOpenApi([...routes, ...automationRoutes], publicUrls(deps.config));
  api.get('/v1/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  const guardAutomation = automationAuth({ db: deps.db, jwt, keys });
  mountRoutes(
    api,
    routes,
    { apiKey: [apiKeyAuth(keys), limits.perKey], automation: [guardAutomation, limits.perKey], none: [] },
    { ...deps, journeyVersions, auth: { jwt, loginLimits } },
  );
  // The automation endpoint's routes answer every refusal in the 4.6 envelope (their own mount).
  mountAutomationRoutes(api, automationRoutes, [guardAutomation, limits.perKey], { ...deps, journeyVersions });
  koa.use(api.routes());

  return {
    koa,
    keys,
    jwt,
    journeyVersions,
    async startListeners() {
      await Promise.all([keys.listen(), journeyVersions.listen(deps.db)]);
    },
    drain: (graceMs) => draining.begin(graceMs),
    listen(port, host) {
      const server = koa.listen(port, host);
      answerClientErrorsInShape(server);
      return server;
    },
    async close() {
      await Promise.all([keys.close(), journeyVersions.close(), limits.close(), loginLimits.close()]);
    },
  };
}
