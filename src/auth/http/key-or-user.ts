import type { Middleware } from 'koa';
import type { Db } from '../../db/pool';
import { unauthorized } from '../../http/api-error';
import type { ApiKeyResolver } from './api-key-auth';
import type { AppState } from '../../http/state';
import type { JwtAuthority } from '../jwt';
import { nocodeAuth } from './nocode-auth';

/**
 * `Authorization: Bearer <API key or user JWT>`, required: a key speaks for its workspace (ctx.state.auth too, for the
 * per-key limit), a JWT for its user (ctx.state.nocode carries both as {workspaceId, userId}). Anything else is 401.
 */
export function keyOrUserAuth(deps: { db: Db; jwt: JwtAuthority; keys: ApiKeyResolver }): Middleware<AppState> {
  const bearer = nocodeAuth(deps);
  return async (ctx, next) => {
    if (!ctx.get('authorization')) throw unauthorized('Unauthorized: send Authorization: Bearer <API key or user JWT>');
    return bearer(ctx, next);
  };
}
