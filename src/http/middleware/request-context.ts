import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../state';

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Gives each request an id (the caller's X-Request-Id when sane) and a child logger; logs one line per request. */
export function requestContext(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path, not the URL: query strings may carry phone numbers.
      ctx.state.log.info({ method: ctx.method, path: ctx._matchedRoute ?? ctx.path, status: ctx.status, ms }, 'request');
    }
  };
}
