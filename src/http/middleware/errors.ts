import type { Middleware } from 'koa';
import { ApiError, failureBody } from '../../errors';
import type { AppState } from '../state';

/** First middleware: every failure, thrown or 404, leaves as {status:"failed",message} with a right status. */
export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = failureBody(`No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = failureBody(err.message);
        return;
      }
      const status = (err as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        // Koa/http-errors thrown by libraries (e.g. ctx.throw); their messages are safe to show.
        ctx.status = status;
        ctx.body = failureBody((err as Error).message);
        return;
      }
      ctx.state.log?.error({ err }, 'unhandled error');
      ctx.status = 500;
      ctx.body = failureBody('Internal server error');
    }
  };
}
