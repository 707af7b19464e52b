import type { Middleware } from 'koa';
import { failureBody } from '../api-error';
import { knownErrorHeaders, knownErrorStatus } from '../error-status';
import { shownPath } from '../shown-path';
import type { AppState } from '../state';

/** First middleware: every failure, thrown or 404, leaves as {status:"failed",message} with a right status. */
export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = failureBody(`No route for ${ctx.method} ${shownPath(ctx)}`);
      }
    } catch (err) {
      ctx.set(knownErrorHeaders(err));
      const status = knownErrorStatus(err);
      if (status !== undefined) {
        ctx.status = status;
        // Every 503 tells the caller when to come back.
        if (status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', '1');
        ctx.body = failureBody((err as Error).message);
        return;
      }
      if (isTransientBackendError(err)) {
        // The database (or another backend) is restarting or unreachable: tell the caller to retry.
        ctx.state.log?.warn({ err: (err as Error).message }, 'backend unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.body = failureBody('Service temporarily unavailable, retry shortly');
        return;
      }
      ctx.state.log?.error({ err }, 'unhandled error');
      ctx.status = 500;
      ctx.body = failureBody('Internal server error');
    }
  };
}

// Socket errors and PostgreSQL's connection-class SQLSTATEs (08xxx, 57P0x: shutdown, cannot connect now).
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '08000', '08001', '08003', '08006', '57P01', '57P02', '57P03']);

function isTransientBackendError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    (typeof e?.code === 'string' && TRANSIENT_CODES.has(e.code)) || /timeout exceeded when trying to connect|Connection terminated/i.test(e?.message ?? '')
  );
}
