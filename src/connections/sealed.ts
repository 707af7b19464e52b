import type { ConnectionRow } from './db/connections';
import type { Keyring } from '../crypto/keyring';
import type { Connection, ConnectionKind } from '../integrations/define';

/** A connection loaded for a run: decrypted secrets, settings, and the access token's expiry. */
export interface StoredConnection extends Connection {
  id: string;
  workspaceId: string;
  userId: string | null;
  expiresAt: Date | null;
  /** When the vendor refused a refresh (the connection must be connected again); null: healthy. */
  brokenAt?: Date | null;
  brokenReason?: string | null;
}

/** The associated data binding a connection's sealed secrets to its row. */
export const connectionAad = (id: string) => `integration_connections:${id}`;

/** The row's secrets, opened. */
export const openSecrets = (row: ConnectionRow, keyring: Keyring): Record<string, string> =>
  JSON.parse(keyring.openText(row.credentials_enc, connectionAad(row.id))) as Record<string, string>;

/** The row as a run sees it. */
export const toConnection = (row: ConnectionRow, keyring: Keyring): StoredConnection => ({
  id: row.id,
  workspaceId: row.workspace_id,
  userId: row.user_id,
  integration: row.integration,
  kind: row.kind as ConnectionKind,
  secrets: openSecrets(row, keyring),
  settings: row.settings,
  expiresAt: row.expires_at,
  brokenAt: row.broken_at,
  brokenReason: row.broken_reason,
});
