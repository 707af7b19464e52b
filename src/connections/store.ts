import type { Queryable } from '../db/pool';
import { deleteConnectionRow, findConnectionRow, listConnectionRows, upsertConnection, type ConnectionRow } from './db/connections';
import { defaultKeyring, type Keyring } from '../crypto/keyring';
import type { ConnectionKind } from '../integrations/define';
import { connectionAad, openSecrets, toConnection, type StoredConnection } from './sealed';

export type { StoredConnection };

export const CONNECTION_KINDS: readonly ConnectionKind[] = ['oauth2', 'api_key', 'basic', 'none'];

/** What a list shows of a connection: never a secret, only the names of the secrets it holds. */
export interface ConnectionSummary {
  id: string;
  user_id: string | null;
  integration: string;
  kind: string;
  settings: Record<string, string>;
  secret_names: string[];
  expires_at: string | null;
  /** ok, or broken: the vendor refused a refresh (broken_at, broken_reason); connecting again mends it. */
  health: 'ok' | 'broken';
  broken_at: string | null;
  broken_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** Creates (or replaces) the connection of a user, or of the workspace when userId is null; secrets are sealed. */
export async function createConnection(
  db: Queryable,
  c: {
    workspaceId: string;
    userId: string | null;
    integration: string;
    kind: ConnectionKind;
    secrets: Record<string, string>;
    settings?: Record<string, string>;
    expiresAt?: Date | null;
  },
  keyring: Keyring = defaultKeyring(),
): Promise<{ connection: ConnectionSummary; replaced: boolean }> {
  const { row, replaced } = await upsertConnection(
    db,
    { workspaceId: c.workspaceId, userId: c.userId, integration: c.integration, kind: c.kind, settings: c.settings ?? {}, expiresAt: c.expiresAt ?? null },
    (id) => keyring.seal(JSON.stringify(c.secrets), connectionAad(id)),
  );
  return { connection: summary(row, Object.keys(c.secrets)), replaced };
}

/** The workspace's connections, without secrets. */
export async function listConnections(db: Queryable, workspaceId: string, keyring: Keyring = defaultKeyring()): Promise<ConnectionSummary[]> {
  return (await listConnectionRows(db, workspaceId)).map((row) => presentConnection(row, keyring));
}

/** A row as lists and the API show it: the names of its secrets, never their values. */
export function presentConnection(row: ConnectionRow, keyring: Keyring = defaultKeyring()): ConnectionSummary {
  let names: string[];
  try {
    names = Object.keys(openSecrets(row, keyring));
  } catch {
    names = []; // sealed with a key no longer configured: listed, so it can be deleted
  }
  return summary(row, names);
}

/** Deletes a connection of the workspace by id. */
export const deleteConnection = (db: Queryable, workspaceId: string, id: string): Promise<boolean> => deleteConnectionRow(db, workspaceId, id);

/** The connection a run uses: the user's own (userId), or the workspace's (userId null); null when there is none. */
export async function loadConnection(
  db: Queryable,
  q: { workspaceId: string; userId: string | null; integration: string },
  keyring: Keyring = defaultKeyring(),
): Promise<StoredConnection | null> {
  const row = await findConnectionRow(db, q);
  return row ? toConnection(row, keyring) : null;
}

function summary(row: ConnectionRow, secretNames: string[]): ConnectionSummary {
  return {
    id: row.id,
    user_id: row.user_id,
    integration: row.integration,
    kind: row.kind,
    settings: row.settings,
    secret_names: secretNames.sort(),
    expires_at: row.expires_at?.toISOString() ?? null,
    health: row.broken_at ? 'broken' : 'ok',
    broken_at: row.broken_at?.toISOString() ?? null,
    broken_reason: row.broken_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export { ensureFreshConnection, type FreshnessOptions } from './refresh';
