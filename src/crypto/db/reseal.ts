import { connectionAad } from '../../connections/sealed';
import { SealedValueError, type Keyring } from '../keyring';
import type { Queryable } from '../../db/pool';
import { sealLegacyWebhookSecrets, webhookSecretAad } from '../../webhooks/db/webhook-secrets';

/** Every column that holds values sealed with the keyring, with the associated data binding each value to its row. */
const SEALED_COLUMNS = [
  { table: 'integration_connections', column: 'credentials_enc', aad: connectionAad },
  { table: 'workspaces', column: 'webhook_secret_enc', aad: webhookSecretAad },
  { table: 'workspaces', column: 'previous_webhook_secret_enc', aad: webhookSecretAad },
] as const;

type SealedColumn = (typeof SEALED_COLUMNS)[number];
export interface ResealProgress {
  column: `${string}.${string}`;
  /** Values under a former key when this column's pass began. */
  stale: number;
  resealed: number;
  /** Values that did not open (unknown key, or corrupted): left as they are, their row ids listed. */
  failed: string[];
}

// The key id sits at bytes 2–9 of an envelope (1-based, after the version byte).
const KID = (column: string) => `substring(${column} from 2 for 8)`;

/**
 * Re-seals every value of every sealed column that a former key sealed under the current key, in batches by row id.
 * Resumable: only values still under a former key are read, and each is replaced only if unchanged since it was read
 * (a concurrent token refresh or rotation wins), so a run stopped half-way and run again re-seals the rest, nothing twice.
 */
export async function resealSecrets(
  db: Queryable,
  keyring: Keyring,
  opts: { batchSize?: number; onProgress?: (p: ResealProgress) => void } = {},
): Promise<{ legacyWebhookSecretsSealed: number; columns: ResealProgress[] }> {
  const legacyWebhookSecretsSealed = await sealLegacyWebhookSecrets(db, keyring);
  const columns: ResealProgress[] = [];
  for (const c of SEALED_COLUMNS) columns.push(await resealColumn(db, keyring, c, opts.batchSize ?? 100, opts.onProgress));
  return { legacyWebhookSecretsSealed, columns };
}

async function resealColumn(
  db: Queryable,
  keyring: Keyring,
  c: SealedColumn,
  batchSize: number,
  onProgress?: (p: ResealProgress) => void,
): Promise<ResealProgress> {
  const kid = keyring.currentKeyIdBytes;
  const staleWhere = `${c.column} IS NOT NULL AND ${KID(c.column)} <> $1`;
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${c.table} WHERE ${staleWhere}`, [kid]);
  const progress: ResealProgress = { column: `${c.table}.${c.column}`, stale: n, resealed: 0, failed: [] };
  onProgress?.({ ...progress });
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.query<{ id: string; sealed: Buffer }>(
      `SELECT id, ${c.column} AS sealed FROM ${c.table} WHERE ${staleWhere} AND id > $2 ORDER BY id LIMIT $3`,
      [kid, after, batchSize],
    );
    if (!rows.length) return progress;
    for (const row of rows) {
      let plain: Buffer;
      try {
        plain = keyring.open(row.sealed, c.aad(row.id));
      } catch (err) {
        if (!(err instanceof SealedValueError)) throw err;
        progress.failed.push(row.id);
        continue;
      }
      const done = await db.query(`UPDATE ${c.table} SET ${c.column} = $3 WHERE id = $1 AND ${c.column} = $2 RETURNING id`, [
        row.id,
        row.sealed,
        keyring.seal(plain, c.aad(row.id)),
      ]);
      progress.resealed += done.length;
    }
    after = rows[rows.length - 1]!.id;
    onProgress?.({ ...progress, failed: [...progress.failed] });
  }
}
