import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from './deps';
import { jsonBody } from './middleware/body';
import { idempotency } from './middleware/idempotency';
import type { Route } from './route';
import type { AppState } from './state';
import { assertStorableText, parseOrThrow } from './validation';

/** Middleware each auth kind puts in front of a route. */
export type AuthMiddleware = Partial<Record<Route['auth'], Middleware<AppState>[]>>;

/** Registers routes on a router as the chain auth → body → idempotency (when the route asks) → validate → handler. */
export function mountRoutes(router: Router<AppState>, routes: Route<any, any>[], auth: AuthMiddleware, deps: AppDeps): void {
  for (const route of routes) {
    const guard = auth[route.auth];
    if (!guard) throw new Error(`${route.method} ${route.path}: no middleware for auth kind ${route.auth}`);
    const chain: Middleware<AppState>[] = [...guard];
    if (route.body) chain.push(jsonBody());
    if (route.idempotent) {
      const streamedBody = route.rawBody && { limitBytes: route.rawBody.limitBytes(deps.config) };
      chain.push(idempotency(deps.db, deps.config, undefined, { streamedBody }));
    }
    chain.push(async (ctx) => {
      assertStorableText(ctx.params, 'path');
      const query = route.query ? parseOrThrow(route.query, ctx.query, 'query') : undefined;
      const body = route.body ? parseOrThrow(route.body, ctx.request.jsonBody === undefined ? {} : ctx.request.jsonBody, 'body') : undefined;
      const result = await route.handler({ query, body, params: ctx.params ?? {}, ctx, deps, auth: ctx.state.auth });
      // A handler that redirected (ctx.redirect) keeps its 3xx; the body goes with it.
      if (ctx.status < 300 || ctx.status >= 400) ctx.status = route.successStatus ?? 200;
      ctx.body = result;
    });
    router.register(route.path, [route.method.toUpperCase()], chain as any);
  }
}
