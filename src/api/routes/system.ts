import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { AppDeps } from '../../http/deps';
import { temporalHealthy } from '../../temporal/client';
import { sameSecret } from '../../crypto/same-secret';
import { unauthorized } from '../../http/api-error';
import { BEARER } from '../../auth/http/api-key-auth';
import { defineRoute, type Route } from '../../http/route';
import type { AppState } from '../../http/state';

const TAG = 'Operations';

/** Prometheus text of the registry; with a token, only for `Authorization: Bearer <token>` (else 401). */
function scrape(registry: Registry, token: string | undefined) {
  return async (ctx: { get(h: string): string; type: string }) => {
    if (token !== undefined) {
      const given = BEARER.exec(ctx.get('authorization'))?.[1] ?? '';
      if (!sameSecret(given, token)) throw unauthorized('Unauthorized: /metrics takes Authorization: Bearer <METRICS_TOKEN>');
    }
    ctx.type = registry.contentType;
    return registry.metrics();
  };
}

/** GET /metrics as a plain middleware, for the listener of its own (METRICS_PORT). */
export function metricsRoute(registry: Registry, token: string | undefined): Middleware {
  const answer = scrape(registry, token);
  return async (ctx) => {
    ctx.body = await answer(ctx);
  };
}

const Health = z.object({ status: z.literal('success'), message: z.literal('ok') });
const Check = z.enum(['ok', 'unreachable']);
const Ready = z.object({
  status: z.enum(['success', 'failed']),
  message: z.string().describe('"ready", or which backends are unreachable'),
  checks: z.object({ postgres: Check, temporal: Check }),
});

/** The unversioned operational routes (liveness, readiness, and /metrics unless METRICS_PORT gives it a listener). */
export function systemRoutes(config: AppDeps['config'], registry: Registry): Route<any, any>[] {
  const healthz = defineRoute({
    method: 'get',
    path: '/healthz',
    tag: TAG,
    summary: 'Liveness: the api process answers',
    description: 'No auth, never rate-limited.',
    auth: 'none',
    responses: { 200: { description: 'Alive', schema: Health } },
    handler: async () => ({ status: 'success', message: 'ok' }),
  });
  const readyz = defineRoute({
    method: 'get',
    path: '/readyz',
    tag: TAG,
    summary: 'Readiness: Postgres and Temporal reachable',
    description: 'No auth, never rate-limited. 503 with the same body when a backend is unreachable.',
    auth: 'none',
    responses: { 200: { description: 'Ready', schema: Ready }, 503: { description: 'Not ready: checks name the unreachable backend', schema: Ready } },
    async handler({ ctx, deps }) {
      const [postgres, temporal] = await Promise.all([
        deps.db.ping().then(
          () => true,
          () => false,
        ),
        temporalHealthy(deps.temporal.connection),
      ]);
      const ready = postgres && temporal;
      ctx.status = ready ? 200 : 503;
      const down = [!postgres && 'postgres', !temporal && 'temporal'].filter(Boolean).join(', ');
      return {
        status: ready ? 'success' : 'failed',
        message: ready ? 'ready' : `not ready: ${down} unreachable`,
        checks: { postgres: postgres ? 'ok' : 'unreachable', temporal: temporal ? 'ok' : 'unreachable' },
      };
    },
  });
  const answer = scrape(registry, config.METRICS_TOKEN);
  const metrics = defineRoute({
    method: 'get',
    path: '/metrics',
    tag: TAG,
    summary: 'Prometheus metrics',
    description:
      'Requests by route and status, process figures, and business metrics: switchboard_calls{status,outcome}, switchboard_enrollments{status}, ' +
      'switchboard_automation_runs{integration,outcome}, switchboard_chat_sockets_open, switchboard_rate_limited_requests_total{limit}. ' +
      'With METRICS_TOKEN set it takes Authorization: Bearer <METRICS_TOKEN>; with METRICS_PORT set it is served on that listener instead.',
    auth: 'none',
    responses: {
      200: { description: 'Prometheus text exposition', contentType: 'text/plain' },
      401: { description: 'With METRICS_TOKEN set: a missing or wrong token' },
    },
    handler: async ({ ctx }) => answer(ctx),
  });
  return config.METRICS_PORT === undefined ? [healthz, readyz, metrics] : [healthz, readyz];
}

/** Serves the system routes (their handlers set their own status; no body parsing, auth or rate limit). */
export function systemRouter(deps: AppDeps, routes: Route<any, any>[]): Router<AppState> {
  const router = new Router<AppState>();
  for (const route of routes) {
    router[route.method](route.path, async (ctx) => {
      ctx.body = await route.handler({ query: ctx.query, body: undefined, params: {}, ctx, deps, auth: undefined });
    });
  }
  return router;
}
