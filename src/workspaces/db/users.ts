import { randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { isUuid } from '../../core/ids';
import type { Queryable } from '../../db/pool';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** scrypt hash in a self-describing form: scrypt$N$r$p$salt$hash (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

export async function createUser(db: Queryable, workspaceId: string, u: { email: string; password: string }): Promise<{ id: string; email: string }> {
  const row = await db.one<{ id: string; email: string }>(
    'INSERT INTO users (id, workspace_id, email, password_hash) VALUES ($1, $2, $3, $4) RETURNING id, email',
    [randomUUID(), workspaceId, u.email.toLowerCase(), await hashPassword(u.password)],
  );
  return row!;
}

/** What auth needs of a user: the workspace, and the integrations the user may run (null: all). */
export interface UserAuthRow {
  id: string;
  workspace_id: string;
  allowed_integrations: string[] | null;
}

/** A user by id, for token auth: the one user lookup not scoped by workspace, as the token is what tells the user. */
export async function findUserForAuth(db: Queryable, userId: string): Promise<UserAuthRow | undefined> {
  return db.one<UserAuthRow>('SELECT id, workspace_id, allowed_integrations FROM users WHERE id = $1', [userId]);
}

/** A user by email with the password hash, for login. */
export async function findUserByEmail(db: Queryable, email: string): Promise<{ id: string; workspace_id: string; password_hash: string } | undefined> {
  return db.one('SELECT id, workspace_id, password_hash FROM users WHERE email = $1', [email.toLowerCase()]);
}

/** Restricts a user (by id or email) to some integrations (null: all); undefined when the workspace has no such user. */
export async function setAllowedIntegrations(
  db: Queryable,
  workspaceId: string,
  userRef: string,
  integrations: string[] | null,
): Promise<{ id: string; email: string } | undefined> {
  return db.one(
    `UPDATE users SET allowed_integrations = $3 WHERE workspace_id = $1 AND ${isUuid(userRef) ? 'id = $2::uuid' : 'email = lower($2)'} RETURNING id, email`,
    [workspaceId, userRef, integrations],
  );
}

/** A user of the workspace by id or email. */
export async function findUserInWorkspace(db: Queryable, workspaceId: string, userRef: string): Promise<{ id: string; email: string } | undefined> {
  return db.one(`SELECT id, email FROM users WHERE workspace_id = $1 AND ${isUuid(userRef) ? 'id = $2::uuid' : 'email = lower($2)'}`, [workspaceId, userRef]);
}
