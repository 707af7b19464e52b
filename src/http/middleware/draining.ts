import type { Middleware } from 'koa';
import { failureBody } from '../../errors';
import type { AppState } from '../state';

const MESSAGE = 'Server is shutting down, retry shortly';

/** Lets the api stop fast: once begin() is called, new requests get 503 and in-flight ones get it after graceMs. */
export interface Draining {
  middleware: Middleware<AppState>;
  /** Starts draining; resolves once every in-flight request has been answered. */
  begin(graceMs: number): Promise<void>;
}

/** Creates the draining middleware for one app. */
export function createDraining(): Draining {
  let draining = false;
  // One entry per in-flight request: calling it answers that request with 503 now.
  const cuts = new Set<() => void>();
  const finished = new Set<Promise<unknown>>();

  const refuse = (ctx: Parameters<Middleware<AppState>>[0]) => {
    ctx.status = 503;
    ctx.set('Retry-After', '1');
    ctx.set('Connection', 'close');
    ctx.body = failureBody(MESSAGE);
  };

  return {
    async middleware(ctx, next) {
      if (draining) {
        refuse(ctx);
        return;
      }
      let cut: () => void = () => undefined;
      const expired = new Promise<'expired'>((resolve) => (cut = () => resolve('expired')));
      // After a cut the handler may still be waiting on a backend that is going away; its late result is dropped.
      const handled = next().then(() => 'handled' as const);
      const done = handled.catch(() => undefined);
      cuts.add(cut);
      finished.add(done);
      try {
        if ((await Promise.race([handled, expired])) === 'expired') refuse(ctx);
        else if (draining) ctx.set('Connection', 'close');
      } finally {
        cuts.delete(cut);
        finished.delete(done);
      }
    },
    async begin(graceMs) {
      draining = true;
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([grace, Promise.all([...finished])]);
      clearTimeout(timer);
      for (const cut of cuts) cut();
    },
  };
}
