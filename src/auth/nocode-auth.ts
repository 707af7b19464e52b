import type { Middleware } from 'koa';
import type { Db } from '../db/pool';
import { findUserForAuth } from '../db/repos/users';
import { unauthorized, unavailable } from '../errors';
import type { ApiKeyResolver } from '../http/auth';
import type { AppState } from '../http/state';
import { isUuid } from '../ids';
import { JwtRefused, type JwtAuthority } from './jwt';

/** Who a no-code platform's request speaks for. */
export interface NocodeAuth {
  workspaceId: string;
  /** The user of a JWT or of body credentials; null for an API key. */
  userId: string | null;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The no-code routes' header auth: `Authorization: Bearer <API key or user JWT>` sets ctx.state.nocode (and, for a
 * key, ctx.state.auth, so the per-key limit counts it). Without the header the route reads `{user, password}` from
 * its body. A malformed, unknown, revoked or expired credential is 401.
 */
export function nocodeAuth(deps: { db: Db; jwt: JwtAuthority; keys: ApiKeyResolver }): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (!header) return next();
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('Unauthorized: expected "Authorization: Bearer <API key or user JWT>"');
    const token = match[1]!;
    if (JWT_SHAPE.test(token)) {
      let userId: string;
      try {
        userId = (await deps.jwt.verify(token)).userId;
      } catch (err) {
        if (!(err instanceof JwtRefused)) throw err;
        if (err.reason === 'jwks_unavailable') throw unavailable(`Unauthorized for now: ${err.message}; retry shortly`);
        throw unauthorized(`Unauthorized: ${err.message}`);
      }
      const user = isUuid(userId) ? await findUserForAuth(deps.db, userId) : undefined;
      if (!user) throw unauthorized('Unauthorized: the token\'s user does not exist');
      ctx.state.nocode = { workspaceId: user.workspace_id, userId: user.id };
      return next();
    }
    const key = await deps.keys.resolve(token);
    if (!key) throw unauthorized('Unauthorized: invalid or revoked API key');
    ctx.state.auth = key;
    ctx.state.nocode = { workspaceId: key.workspaceId, userId: null };
    return next();
  };
}
