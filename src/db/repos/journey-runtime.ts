import { randomBytes } from 'node:crypto';
import type { Queryable } from '../pool';
import type { LeadRow } from './leads';

/**
 * The secret a workspace's journey webhooks are signed with (`whsec_…`), created on first use. One per workspace,
 * so a receiver verifies every journey's webhooks with one value.
 */
export async function workspaceWebhookSecret(db: Queryable, workspaceId: string): Promise<string | undefined> {
  const row = await db.one<{ webhook_secret: string }>(
    `UPDATE workspaces SET webhook_secret = COALESCE(webhook_secret, $2) WHERE id = $1 RETURNING webhook_secret`,
    [workspaceId, `whsec_${randomBytes(24).toString('base64url')}`],
  );
  return row?.webhook_secret;
}

/** A lead with the time zone its windows use: its own, else its workspace's. */
export async function leadForJourney(
  db: Queryable,
  workspaceId: string,
  leadId: string,
): Promise<(LeadRow & { workspace_timezone: string; on_dnc: boolean }) | undefined> {
  return db.one(
    `SELECT l.*, w.timezone AS workspace_timezone,
            EXISTS (SELECT 1 FROM do_not_call d WHERE d.workspace_id = l.workspace_id AND d.phone = l.phone) AS on_dnc
     FROM leads l JOIN workspaces w ON w.id = l.workspace_id
     WHERE l.workspace_id = $1 AND l.id = $2`,
    [workspaceId, leadId],
  );
}
