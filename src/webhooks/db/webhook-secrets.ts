import { randomBytes } from 'node:crypto';
import { defaultKeyring, type Keyring } from '../../crypto/keyring';
import type { Queryable } from '../../db/pool';

/** A workspace's journey-webhook secrets: the current one, and the one it replaced while that is in its grace period. */
export interface WebhookSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: Date | null;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** Both secrets of a workspace are sealed for the workspace (so a rotation moves the current envelope to previous as is). */
export const webhookSecretAad = (workspaceId: string) => `workspaces.webhook_secret:${workspaceId}`;

const RETURNING = `RETURNING webhook_secret_enc AS current,
  CASE WHEN previous_webhook_secret_expires_at > now() THEN previous_webhook_secret_enc END AS previous,
  CASE WHEN previous_webhook_secret_expires_at > now() THEN previous_webhook_secret_expires_at END AS "previousExpiresAt"`;

type SealedRow = { current: Buffer; previous: Buffer | null; previousExpiresAt: Date | null };

const opened = (row: SealedRow | undefined, workspaceId: string, keyring: Keyring): WebhookSecrets | undefined =>
  row && {
    current: keyring.openText(row.current, webhookSecretAad(workspaceId)),
    previous: row.previous ? keyring.openText(row.previous, webhookSecretAad(workspaceId)) : null,
    previousExpiresAt: row.previousExpiresAt,
  };

/** The workspace's secrets (the current one is created on first use); undefined when there is no such workspace. */
export async function webhookSecrets(db: Queryable, workspaceId: string, keyring: Keyring = defaultKeyring()): Promise<WebhookSecrets | undefined> {
  await sealLegacyWebhookSecrets(db, keyring, workspaceId);
  const row = await db.one<SealedRow>(`UPDATE workspaces SET webhook_secret_enc = COALESCE(webhook_secret_enc, $2) WHERE id = $1 ${RETURNING}`, [
    workspaceId,
    keyring.seal(newSecret(), webhookSecretAad(workspaceId)),
  ]);
  return opened(row, workspaceId, keyring);
}

/**
 * Replaces the current secret with a new one; the replaced one stays valid for graceSeconds (0: not at all). A secret
 * still in its grace period from an earlier rotation ends now.
 */
export async function rotateWebhookSecret(
  db: Queryable,
  workspaceId: string,
  graceSeconds: number,
  keyring: Keyring = defaultKeyring(),
): Promise<WebhookSecrets | undefined> {
  await sealLegacyWebhookSecrets(db, keyring, workspaceId);
  // SET expressions read the row as it was: previous_webhook_secret_enc takes the secret being replaced.
  const row = await db.one<SealedRow>(
    `UPDATE workspaces SET
       previous_webhook_secret_enc = webhook_secret_enc,
       previous_webhook_secret_expires_at = CASE WHEN webhook_secret_enc IS NULL THEN NULL ELSE now() + make_interval(secs => $3) END,
       webhook_secret_enc = $2
     WHERE id = $1 ${RETURNING}`,
    [workspaceId, keyring.seal(newSecret(), webhookSecretAad(workspaceId)), graceSeconds],
  );
  return opened(row, workspaceId, keyring);
}

/**
 * Seals the plaintext secrets written before migration 010 (of one workspace, or of all) and empties the plaintext
 * columns; returns how many workspaces it sealed. The api runs it for all on start; the secret functions for theirs.
 */
export async function sealLegacyWebhookSecrets(db: Queryable, keyring: Keyring, workspaceId?: string): Promise<number> {
  const legacy = await db.query<{ id: string; webhook_secret: string | null; previous_webhook_secret: string | null }>(
    `SELECT id, webhook_secret, previous_webhook_secret FROM workspaces
     WHERE (webhook_secret IS NOT NULL OR previous_webhook_secret IS NOT NULL) AND ($1::uuid IS NULL OR id = $1)`,
    [workspaceId ?? null],
  );
  let sealed = 0;
  for (const w of legacy) {
    const seal = (s: string | null) => (s === null ? null : keyring.seal(s, webhookSecretAad(w.id)));
    // Only if the plaintext is still what was read: a concurrent sealer has done it otherwise.
    const rows = await db.query(
      `UPDATE workspaces SET
         webhook_secret_enc = COALESCE($4, webhook_secret_enc), previous_webhook_secret_enc = COALESCE($5, previous_webhook_secret_enc),
         webhook_secret = NULL, previous_webhook_secret = NULL
       WHERE id = $1 AND webhook_secret IS NOT DISTINCT FROM $2 AND previous_webhook_secret IS NOT DISTINCT FROM $3 RETURNING id`,
      [w.id, w.webhook_secret, w.previous_webhook_secret, seal(w.webhook_secret), seal(w.previous_webhook_secret)],
    );
    sealed += rows.length;
  }
  return sealed;
}
