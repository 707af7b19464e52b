import type { Db } from '../db/pool';
import { findUserForAuth, type UserAuthRow } from '../workspaces/db/users';
import { DomainError } from '../core/errors';
import { isUuid } from '../core/ids';
import { JwtRefused, type JwtAuthority } from './jwt';
import { expiringCache } from '../core/expiring-cache';

/**
 * The user a JWT speaks for, as both the automation and the no-code routes read it: a refused token fails unauthorized
 * (auth_unavailable, "retry shortly", while the JWKS is unreachable), as does a token whose user does not exist. Users are cached for
 * ttlMs (a restriction set by the CLI reaches the api within that time).
 */
export function jwtUserResolver(
  deps: { db: Db; jwt: JwtAuthority },
  opts: { ttlMs?: number; malformedHint?: string } = {},
): (token: string) => Promise<UserAuthRow> {
  const users = expiringCache<string, UserAuthRow>({ max: 10_000, ttlMs: opts.ttlMs ?? 5_000 });
  return async (token) => {
    let userId: string;
    try {
      userId = (await deps.jwt.verify(token)).userId;
    } catch (err) {
      if (!(err instanceof JwtRefused)) throw err;
      if (err.reason === 'jwks_unavailable') throw new DomainError('auth_unavailable', `Unauthorized for now: ${err.message}; retry shortly`);
      const hint = err.reason === 'malformed' && opts.malformedHint ? ` (${opts.malformedHint})` : '';
      throw new DomainError('unauthorized', `Unauthorized: ${err.message}${hint}`);
    }
    let user = users.get(userId);
    if (!user && isUuid(userId)) {
      user = await findUserForAuth(deps.db, userId);
      if (user) users.set(userId, user);
    }
    if (!user) throw new DomainError('unauthorized', "Unauthorized: the token's user does not exist");
    return user;
  };
}
