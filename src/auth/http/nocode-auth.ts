import type { Middleware } from 'koa';
import type { Db } from '../../db/pool';
import { unauthorized } from '../../http/api-error';
import { BEARER, requireScope, type ApiKeyResolver } from './api-key-auth';
import type { AppState } from '../../http/state';
import type { JwtAuthority } from '../jwt';
import { jwtUserResolver } from '../jwt-user';

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The no-code routes' header auth: `Authorization: Bearer <API key or user JWT>` sets ctx.state.nocode (and, for a
 * key, ctx.state.auth, so the per-key limit counts it). Without the header the route reads `{user, password}` from
 * its body. A malformed, unknown, revoked or expired credential is 401.
 */
export function nocodeAuth(deps: { db: Db; jwt: JwtAuthority; keys: ApiKeyResolver }): Middleware<AppState> {
  const userOf = jwtUserResolver(deps);
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (!header) return next();
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('Unauthorized: expected "Authorization: Bearer <API key or user JWT>"');
    const token = match[1]!;
    if (JWT_SHAPE.test(token)) {
      const user = await userOf(token);
      ctx.state.nocode = { workspaceId: user.workspace_id, userId: user.id };
      return next();
    }
    const key = await deps.keys.resolve(token);
    if (!key) throw unauthorized('Unauthorized: invalid or revoked API key');
    ctx.state.auth = requireScope(key, 'rest');
    ctx.state.nocode = { workspaceId: key.workspaceId, userId: null };
    return next();
  };
}
