import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { authorize, type ExecuteRequest } from '../execute';
import { failureEnvelope } from '../envelope';
import type { AppDeps } from '../../http/deps';
import { knownErrorHeaders, knownErrorStatus } from '../../http/error-status';
import { jsonBody } from '../../http/middleware/body';
import { idempotency } from '../../http/middleware/idempotency';
import type { Route } from '../../http/route';
import type { AppState } from '../../http/state';
import { assertStorableText, parseOrThrow } from '../../http/validation';
import { randomUUID } from 'node:crypto';

/** Every refusal on the automation routes answers the 4.6 envelope (success false) with the right status. */
function envelopeErrors(): Middleware<AppState> {
  return async (ctx, next) => {
    (ctx.state as { receivedAt?: number }).receivedAt = Date.now();
    try {
      await next();
    } catch (err) {
      let status = knownErrorStatus(err);
      let message = (err as Error).message;
      if (status === undefined) {
        ctx.state.log?.error({ err }, 'automation route failed');
        status = 500;
        message = 'Internal server error';
      }
      ctx.set(knownErrorHeaders(err));
      if (status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', '1');
      ctx.status = status;
      ctx.body = failureEnvelope(randomUUID(), message, (ctx.request.jsonBody ?? {}) as object);
    }
  };
}

const automationOf = (ctx: { state: AppState }) => ctx.state.automation;

/** A JWT user's keys are the user's; a superuser key's (x-key) are that key's. */
const callerScope = (ctx: { state: AppState }) => {
  const a = automationOf(ctx);
  if (!a) return undefined;
  const caller = a.userId ? `user:${a.userId}` : ctx.state.auth && `key:${ctx.state.auth.apiKeyId}`;
  return caller ? { workspaceId: a.workspaceId, caller } : undefined;
};

/**
 * Registers the automation routes: envelope errors → auth → body → validation and authorization (refusals change
 * nothing and are not recorded under an Idempotency-Key) → idempotency → handler.
 */
export function mountAutomationRoutes(router: Router<AppState>, routes: Route<any, any>[], auth: Middleware<AppState>[], deps: AppDeps): void {
  for (const route of routes) {
    const chain: Middleware<AppState>[] = [envelopeErrors(), ...auth];
    if (route.body) chain.push(jsonBody());
    chain.push(async (ctx, next) => {
      const state = ctx.state as { parsed?: { query: unknown; body: unknown } };
      assertStorableText(ctx.params, 'path');
      const body = route.body ? parseOrThrow(route.body, ctx.request.jsonBody === undefined ? {} : ctx.request.jsonBody, 'body') : undefined;
      if (route.body) authorize(automationOf(ctx)!, body as ExecuteRequest);
      state.parsed = { query: route.query ? parseOrThrow(route.query, ctx.query, 'query') : undefined, body };
      return next();
    });
    if (route.idempotent) chain.push(idempotency(deps.db, deps.config, callerScope));
    chain.push(async (ctx) => {
      const { query, body } = (ctx.state as { parsed?: { query: unknown; body: unknown } }).parsed!;
      ctx.body = await route.handler({ query, body, params: ctx.params ?? {}, ctx, deps, auth: undefined });
      ctx.status = 200;
    });
    router.register(route.path, [route.method.toUpperCase()], chain as any);
  }
}
