import type { Middleware } from 'koa';
import type { AppState } from '../../http/state';

/**
 * CORS preflight of POST /webchat/session, for the widget on another site: any origin may ask (the preflight carries
 * no flow id); the POST itself is then held to the flow's allowed origins and echoes the origin only when allowed.
 */
export function webchatPreflight(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.method !== 'OPTIONS' || ctx.path !== '/webchat/session' || !ctx.get('origin')) return next();
    ctx.status = 204;
    ctx.set('Access-Control-Allow-Origin', ctx.get('origin'));
    ctx.set('Access-Control-Allow-Methods', 'POST');
    ctx.set('Access-Control-Allow-Headers', 'content-type');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.set('Vary', 'Origin');
  };
}
