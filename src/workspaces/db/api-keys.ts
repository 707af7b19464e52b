import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isUuid } from '../../core/ids';
import type { Queryable } from '../../db/pool';

const PREFIX_LENGTH = 12;

/** The NOTIFY channel a revocation is announced on, so every api process drops its cached keys. */
export const API_KEYS_CHANNEL = 'api_keys_changed';

/** What a key may drive: `rest` the /v1 and no-code routes, `integrations` the automation host in x-key. */
export const API_KEY_SCOPES = ['rest', 'integrations'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  superuser: boolean;
  scopes: ApiKeyScope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export const hashKey = (key: string): Buffer => createHash('sha256').update(key).digest();

/** Creates a key and returns its plaintext once; only its SHA-256 and readable prefix are stored. */
export async function createApiKey(
  db: Queryable,
  workspaceId: string,
  opts: { name: string; superuser?: boolean; scopes?: readonly ApiKeyScope[] },
): Promise<{ key: string; row: ApiKeyRow }> {
  const kind = opts.superuser ? 'sbx' : 'sbk';
  const key = `${kind}_${randomBytes(32).toString('base64url')}`;
  const row = await db.one<ApiKeyRow>(
    `INSERT INTO api_keys (id, workspace_id, name, prefix, key_hash, superuser, scopes)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING id, workspace_id, name, prefix, superuser, scopes, created_at, last_used_at, revoked_at`,
    [randomUUID(), workspaceId, opts.name, key.slice(0, PREFIX_LENGTH), hashKey(key), opts.superuser ?? false, [...(opts.scopes ?? API_KEY_SCOPES)]],
  );
  return { key, row: row! };
}

export async function listApiKeys(db: Queryable, workspaceId: string): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `SELECT id, workspace_id, name, prefix, superuser, scopes, created_at, last_used_at, revoked_at
     FROM api_keys WHERE workspace_id = $1 ORDER BY created_at`,
    [workspaceId],
  );
}

/** Revokes by id or by prefix within a workspace; returns whether a live key was revoked. */
export async function revokeApiKey(db: Queryable, workspaceId: string, idOrPrefix: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE api_keys SET revoked_at = now()
     WHERE workspace_id = $1 AND revoked_at IS NULL AND ${isUuid(idOrPrefix) ? 'id = $2::uuid' : 'prefix = $2'}
     RETURNING id`,
    [workspaceId, idOrPrefix],
  );
  if (rows.length > 0) await db.query('SELECT pg_notify($1, $2)', [API_KEYS_CHANNEL, workspaceId]);
  return rows.length > 0;
}

/** The live key for a plaintext, if any: the one lookup not scoped by workspace, as the key is what tells the workspace. */
export async function findLiveKey(
  db: Queryable,
  key: string,
): Promise<{ id: string; workspace_id: string; superuser: boolean; scopes: ApiKeyScope[] } | undefined> {
  return db.one('SELECT id, workspace_id, superuser, scopes FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hashKey(key)]);
}

/** Records that a key was used just now. */
export async function touchApiKey(db: Queryable, workspaceId: string, id: string): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE workspace_id = $1 AND id = $2', [workspaceId, id]);
}
