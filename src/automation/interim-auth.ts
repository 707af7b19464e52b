import type { Middleware } from 'koa';
import { forbidden, unauthorized } from '../errors';
import type { ApiKeyResolver } from '../http/auth';
import type { AppState } from '../http/state';
import type { AutomationAuth } from './types';

/** Superuser mode only (x-key); user JWTs arrive with the login and JWT verification (src/auth). */
export function superuserKeyAuth(keys: ApiKeyResolver): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get('x-key');
    if (!key) throw unauthorized('Unauthorized: send a user JWT (Authorization: Bearer) or a superuser key (x-key)');
    const found = await keys.resolve(key);
    if (!found) throw unauthorized('Unauthorized: invalid or revoked key');
    if (!found.superuser) throw forbidden('Forbidden: x-key needs a superuser API key');
    const auth: AutomationAuth = { workspaceId: found.workspaceId, userId: null, superuser: true, allowedIntegrations: null };
    (ctx.state as { automation?: AutomationAuth }).automation = auth;
    return next();
  };
}
