import type { Middleware } from 'koa';
import type { Db } from '../../db/pool';
import { badRequest, unauthorized } from '../../http/api-error';
import { BEARER, requireScope, type ApiKeyResolver } from './api-key-auth';
import type { AppState } from '../../http/state';
import type { JwtAuthority } from '../jwt';
import { jwtUserResolver } from '../jwt-user';
import type { AutomationAuth } from '../callers';

/**
 * Automation auth: `Authorization: Bearer <user JWT>` → that user; `x-key: <API key>` → superuser mode in the key's
 * workspace (seed section 5). A key whose scopes leave out integrations is 403; a missing, malformed, expired or forged
 * credential is 401 (thrown as ApiError: the route renders its own envelope). Users are cached for a few seconds (a restriction set by
 * the CLI reaches the api within userTtlMs).
 */
export function automationAuth(deps: { db: Db; jwt: JwtAuthority; keys: ApiKeyResolver }, opts: { userTtlMs?: number } = {}): Middleware<AppState> {
  const userOf = jwtUserResolver(deps, {
    ttlMs: opts.userTtlMs,
    malformedHint: 'Authorization: Bearer takes a user JWT from POST /api/auth/login; API keys go in x-key',
  });
  const fromJwt = async (token: string): Promise<AutomationAuth> => {
    const user = await userOf(token);
    return { workspaceId: user.workspace_id, userId: user.id, superuser: false, allowedIntegrations: user.allowed_integrations };
  };

  return async (ctx, next) => {
    const xKey = ctx.get('x-key');
    const authorization = ctx.get('authorization');
    if (xKey && authorization) throw badRequest('Send either Authorization: Bearer <user JWT> or x-key: <API key>, not both');
    if (xKey) {
      const key = await deps.keys.resolve(xKey.trim());
      if (!key) throw unauthorized('Unauthorized: invalid or revoked key in x-key');
      ctx.state.auth = requireScope(key, 'integrations'); // the per-key rate limit counts superuser calls too
      ctx.state.automation = { workspaceId: key.workspaceId, userId: null, superuser: true, allowedIntegrations: null };
      return next();
    }
    if (!authorization) throw unauthorized('Unauthorized: send Authorization: Bearer <user JWT> or x-key: <API key>');
    const match = BEARER.exec(authorization);
    if (!match) throw unauthorized('Unauthorized: expected "Authorization: Bearer <user JWT>"');
    ctx.state.automation = await fromJwt(match[1]!);
    return next();
  };
}
