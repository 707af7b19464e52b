import type { Middleware } from 'koa';
import { failureBody } from '../api-error';
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
  // One entry per in-flight request: calling it settles that request's wait now (it is then answered 503).
  const inFlight = new Set<(outcome: 'cut') => void>();
  const idle: (() => void)[] = [];

  const refuse = (ctx: Parameters<Middleware<AppState>>[0]) => {
    ctx.status = 503;
    ctx.set('Retry-After', '1');
    ctx.set('Connection', 'close');
    ctx.body = failureBody(MESSAGE);
  };

  return {
    async middleware(ctx, next) {
      if (draining) return refuse(ctx);
      let settle: (outcome: 'cut' | void) => void = () => undefined;
      let outcome: 'cut' | void;
      try {
        // After a cut the handler may still be waiting on a backend that is going away; its late result is dropped.
        outcome = await new Promise<'cut' | void>((resolve, reject) => {
          settle = resolve;
          inFlight.add(resolve);
          next().then(resolve, reject);
        });
      } finally {
        inFlight.delete(settle);
        if (draining && inFlight.size === 0) for (const wake of idle.splice(0)) wake();
      }
      if (outcome === 'cut') refuse(ctx);
      else if (draining) ctx.set('Connection', 'close');
    },
    async begin(graceMs) {
      draining = true;
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      const allDone = new Promise<void>((resolve) => (inFlight.size === 0 ? resolve() : idle.push(resolve)));
      await Promise.race([grace, allDone]);
      clearTimeout(timer);
      for (const cut of inFlight) cut('cut');
    },
  };
}
