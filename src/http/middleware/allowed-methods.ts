import type { Middleware } from 'koa';
import { ApiError } from '../api-error';
import { shownPath } from '../shown-path';
import type { AppState } from '../state';

interface MatchedLayer {
  methods: string[];
}

/**
 * After the routers: a path some route serves, asked with a method none serves, is a 405 with `Allow` in the error
 * shape (any method, also ones the router does not know, such as TRACE); OPTIONS answers 204 with `Allow`.
 * Unknown paths stay 404.
 */
export function allowedMethods(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const matched = ((ctx as { matched?: MatchedLayer[] }).matched ?? []).flatMap((layer) => layer.methods);
    if (!matched.length) return;
    const allow = [...new Set([...matched, 'OPTIONS'])].join(', ');
    ctx.set('Allow', allow);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    throw new ApiError(405, 'method_not_allowed', `Method ${ctx.method} is not allowed on ${shownPath(ctx)} (allowed: ${allow})`, { Allow: allow });
  };
}
