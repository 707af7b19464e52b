import type { Queryable } from '../../db/pool';
import type { LeadRow } from '../../leads/db/leads';

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

/** A workspace's time zone and whether a phone is on its do-not-call list (a lead given as a record, in a preview). */
export async function workspaceFactsForPhone(
  db: Queryable,
  workspaceId: string,
  phone: string,
): Promise<{ workspace_timezone: string; on_dnc: boolean } | undefined> {
  return db.one(
    `SELECT w.timezone AS workspace_timezone,
            EXISTS (SELECT 1 FROM do_not_call d WHERE d.workspace_id = w.id AND d.phone = $2) AS on_dnc
     FROM workspaces w WHERE w.id = $1`,
    [workspaceId, phone],
  );
}
