import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { AppDeps } from '../../deps';
import { temporalHealthy } from '../../temporal/client';
import type { AppState } from '../state';

/** Unversioned operational routes: liveness, readiness, metrics. */
export function systemRouter(deps: AppDeps, registry: Registry): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'success', message: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const [postgres, temporal] = await Promise.all([
      deps.db.ping().then(
        () => true,
        () => false,
      ),
      temporalHealthy(deps.temporal.connection),
    ]);
    const ready = postgres && temporal;
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'success' : 'failed',
      message: ready ? 'ready' : `not ready: ${[!postgres && 'postgres', !temporal && 'temporal'].filter(Boolean).join(', ')} unreachable`,
      checks: { postgres: postgres ? 'ok' : 'unreachable', temporal: temporal ? 'ok' : 'unreachable' },
    };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
