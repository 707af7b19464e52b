import type Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { AppState } from './state';

/** Paths that a request can only match by being written exactly so: no parameters, no pattern characters. */
const PLAIN_PATH = /^\/[A-Za-z0-9/_.-]*$/;

/**
 * The hot path's router: a request whose method and path are exactly those of one route on `router` (the common
 * case: `GET /v1/lead/get`) runs that route's middleware after one Map lookup, instead of being tested against every
 * route of every router in turn and having its chain composed per request. It is the same middleware the router
 * would run, with the same `_matchedRoute` and empty `params`. Anything else (other spellings of a path, routes with
 * parameters, unknown paths, methods a path does not serve, HEAD and OPTIONS) goes on to `next`, the routers.
 *
 * A path is taken only when the router itself would run exactly that one layer for it, so the table never changes
 * which code answers a request.
 */
export function exactRoutes(router: Router<AppState>): Middleware<AppState> {
  const table = new Map<string, { path: string; run: Middleware<AppState> }>();
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string' || layer.paramNames.length > 0 || !PLAIN_PATH.test(layer.path)) continue;
    for (const method of layer.methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const matched = router.match(layer.path, method).pathAndMethod;
      if (matched.length !== 1 || matched[0] !== layer) continue;
      table.set(`${method} ${layer.path}`, { path: layer.path, run: compose(layer.stack as Middleware<AppState>[]) });
    }
  }
  return (ctx, next) => {
    const route = table.get(`${ctx.method} ${ctx.path}`);
    if (!route) return next();
    ctx._matchedRoute = route.path;
    ctx.params = {};
    return route.run(ctx, next);
  };
}
