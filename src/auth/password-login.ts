import type { Db } from '../db/pool';
import type { LoginLimits } from './login-limits';
import { findUserByEmail, hashPassword, verifyPassword } from '../workspaces/db/users';
import { DomainError } from '../core/errors';

// A user that does not exist costs the same scrypt as a wrong password, so the answer's timing does not tell them apart.
let decoyHash: Promise<string> | undefined;

/**
 * Checks a user's email and password under the login limits (attempts per client address; failures per email and
 * address, and per email: login_rate_limited);
 * the user's id and workspace, or unauthorized that does not say which part was wrong.
 */
export async function verifyLogin(
  deps: { db: Db; auth?: { loginLimits: LoginLimits } },
  ip: string,
  email: string,
  password: string,
): Promise<{ id: string; workspaceId: string }> {
  if (!deps.auth) throw new DomainError('auth_unavailable', 'Login is not available on this process');
  deps.auth.loginLimits.attempt(ip, email);
  const user = await findUserByEmail(deps.db, email);
  const ok = user
    ? await verifyPassword(password, user.password_hash)
    : await verifyPassword(password, await (decoyHash ??= hashPassword('decoy'))).then(() => false);
  if (!user || !ok) {
    deps.auth.loginLimits.failed(ip, email);
    throw new DomainError('unauthorized', 'Unauthorized: unknown email or wrong password');
  }
  return { id: user.id, workspaceId: user.workspace_id };
}
