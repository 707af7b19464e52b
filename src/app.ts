import Router from '@koa/router';
import Koa from 'koa';
import { publicUrls } from './config';
import type { AppDeps } from './deps';
import { apiKeyAuth, ApiKeyResolver } from './http/auth';
import { errorHandler } from './http/middleware/errors';
import { createHttpMetrics } from './http/middleware/metrics';
import { requestContext } from './http/middleware/request-context';
import { mountRoutes } from './http/mount';
import { buildOpenApi } from './http/openapi';
import { LatestJourneyVersions } from './journeys/latest-versions';
import { routes } from './http/routes';
import { systemRouter } from './http/routes/system';
import type { AppState } from './http/state';

export interface App {
  koa: Koa<AppState>;
  keys: ApiKeyResolver;
  journeyVersions: LatestJourneyVersions;
  /** Starts the caches' change listeners (api keys, journey versions). */
  listen(connectionString: string): Promise<void>;
  close(): Promise<void>;
}

/** Builds the api (no listen): system routes, the OpenAPI document and every /v1 route. */
export function createApp(deps: AppDeps): App {
  const koa = new Koa<AppState>({ proxy: deps.config.TRUST_PROXY });
  const metrics = createHttpMetrics();
  const keys = new ApiKeyResolver(deps.db, deps.logger);
  const journeyVersions = deps.journeyVersions ?? new LatestJourneyVersions(deps.logger);

  koa.use(requestContext(deps.logger));
  koa.use(metrics.middleware);
  koa.use(errorHandler());

  const system = systemRouter(deps, metrics.registry);
  koa.use(system.routes());

  const api = new Router<AppState>();
  const openapi = buildOpenApi(routes, publicUrls(deps.config));
  api.get('/v1/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  mountRoutes(api, routes, { apiKey: [apiKeyAuth(keys)], none: [] }, { ...deps, journeyVersions });
  koa.use(api.routes());
  koa.use(api.allowedMethods({ throw: false }));

  return {
    koa,
    keys,
    journeyVersions,
    async listen(connectionString) {
      await Promise.all([keys.listen(connectionString), journeyVersions.listen(connectionString)]);
    },
    async close() {
      await Promise.all([keys.close(), journeyVersions.close()]);
    },
  };
}
