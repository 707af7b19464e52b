import { randomBytes } from 'node:crypto';
import type { Queryable } from '../pool';

/** A workspace's journey-webhook secrets: the current one, and the one it replaced while that is in its grace period. */
export interface WebhookSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: Date | null;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

const RETURNING = `RETURNING webhook_secret AS current,
  CASE WHEN previous_webhook_secret_expires_at > now() THEN previous_webhook_secret END AS previous,
  CASE WHEN previous_webhook_secret_expires_at > now() THEN previous_webhook_secret_expires_at END AS "previousExpiresAt"`;

/** The workspace's secrets (the current one is created on first use); undefined when there is no such workspace. */
export async function webhookSecrets(db: Queryable, workspaceId: string): Promise<WebhookSecrets | undefined> {
  return db.one<WebhookSecrets & Record<string, unknown>>(
    `UPDATE workspaces SET webhook_secret = COALESCE(webhook_secret, $2) WHERE id = $1 ${RETURNING}`,
    [workspaceId, newSecret()],
  );
}

/**
 * Replaces the current secret with a new one; the replaced one stays valid for graceSeconds (0: not at all). A secret
 * still in its grace period from an earlier rotation ends now.
 */
export async function rotateWebhookSecret(db: Queryable, workspaceId: string, graceSeconds: number): Promise<WebhookSecrets | undefined> {
  // SET expressions read the row as it was: previous_webhook_secret takes the secret being replaced.
  return db.one<WebhookSecrets & Record<string, unknown>>(
    `UPDATE workspaces SET
       previous_webhook_secret = webhook_secret,
       previous_webhook_secret_expires_at = CASE WHEN webhook_secret IS NULL THEN NULL ELSE now() + make_interval(secs => $3) END,
       webhook_secret = $2
     WHERE id = $1 ${RETURNING}`,
    [workspaceId, newSecret(), graceSeconds],
  );
}
