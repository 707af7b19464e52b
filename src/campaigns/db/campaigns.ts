import type { Db, Queryable } from '../../db/pool';
import type { Audience, CampaignSpec, CampaignStatus } from '../types';

/** A campaign as stored. */
export interface CampaignRow {
  id: string;
  workspace_id: string;
  name: string;
  agent_id: string;
  spec: CampaignSpec;
  status: CampaignStatus;
  audience_size: number | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = 'id, workspace_id, name, agent_id, spec, status, audience_size, created_at, started_at, finished_at';

/** Records a campaign unless it is already recorded (the api and the run both write it; the first one wins). */
export async function insertCampaign(
  db: Queryable,
  c: { id: string; workspaceId: string; name: string; agentId: string; spec: CampaignSpec; status: CampaignStatus },
): Promise<void> {
  await db.query(`INSERT INTO campaigns (id, workspace_id, name, agent_id, spec, status) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`, [
    c.id,
    c.workspaceId,
    c.name,
    c.agentId,
    JSON.stringify(c.spec),
    c.status,
  ]);
}

/** The workspace's campaign, or undefined (another workspace's included). */
export async function findCampaign(db: Queryable, workspaceId: string, id: string): Promise<CampaignRow | undefined> {
  return db.one<CampaignRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM campaigns WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
}

/** The workspace's campaign locked for the rest of the transaction (one control at a time), or undefined. */
export async function lockCampaign(q: Queryable, workspaceId: string, id: string): Promise<CampaignRow | undefined> {
  return q.one<CampaignRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM campaigns WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, id]);
}

/** The workspace's campaigns, newest first, after the keyset position when given (position: created_at to the microsecond). */
export async function listCampaigns(
  db: Queryable,
  workspaceId: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<(CampaignRow & { position: string })[]> {
  return db.query<CampaignRow & { position: string } & Record<string, unknown>>(
    `SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position FROM campaigns
     WHERE workspace_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))
     ORDER BY created_at DESC, id DESC LIMIT $4`,
    [workspaceId, after?.createdAt ?? null, after?.id ?? null, limit],
  );
}

/** Sets the status when it is one of `from`; the row as it is afterwards (undefined: no such campaign). */
export async function setCampaignStatus(db: Queryable, id: string, status: CampaignStatus, from: readonly CampaignStatus[]): Promise<CampaignRow | undefined> {
  const updated = await db.one<CampaignRow & Record<string, unknown>>(
    `UPDATE campaigns SET status = $2, started_at = CASE WHEN $2 = 'running' THEN coalesce(started_at, now()) ELSE started_at END
     WHERE id = $1 AND status = ANY ($3) RETURNING ${COLUMNS}`,
    [id, status, from],
  );
  return updated ?? db.one<CampaignRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM campaigns WHERE id = $1`, [id]);
}

/** The leads' ids an audience names in the workspace (lead ids, a tag's leads, an import's leads), as one SELECT. */
function audienceSelect(audience: Audience): { sql: string; param: unknown } {
  if ('tag' in audience) return { sql: 'SELECT lead_id FROM lead_tags WHERE workspace_id = $2 AND tag = $3 ORDER BY created_at, lead_id', param: audience.tag };
  if ('lead_ids' in audience) {
    return {
      sql: 'SELECT l.id FROM unnest($3::uuid[]) WITH ORDINALITY AS a(id, n) JOIN leads l ON l.id = a.id AND l.workspace_id = $2 ORDER BY a.n',
      param: audience.lead_ids,
    };
  }
  return {
    sql: `SELECT DISTINCT ON (i.lead_id) i.lead_id FROM lead_import_items i JOIN lead_imports m ON m.id = i.import_id AND m.workspace_id = $2
          JOIN leads l ON l.id = i.lead_id AND l.workspace_id = $2 WHERE i.import_id = $3 AND i.lead_id IS NOT NULL ORDER BY i.lead_id, i.row_number`,
    param: audience.import_id,
  };
}

/** How many of the ids are the workspace's leads (the api checks a lead_ids audience before it starts a campaign). */
export async function countWorkspaceLeads(db: Queryable, workspaceId: string, ids: string[]): Promise<number> {
  const row = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE workspace_id = $1 AND id = ANY ($2::uuid[])', [workspaceId, ids]);
  return row?.n ?? 0;
}

/** True when the workspace has the import (false also before the lead import tables exist). */
export async function importExists(db: Queryable, workspaceId: string, importId: string): Promise<boolean> {
  try {
    return !!(await db.one('SELECT 1 FROM lead_imports WHERE workspace_id = $1 AND id = $2', [workspaceId, importId]));
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return false;
    throw err;
  }
}

/** Takes the audience snapshot once (a rerun after a crash finds it taken); returns the audience size. */
export async function snapshotAudience(db: Db, campaignId: string, workspaceId: string, audience: Audience): Promise<number> {
  return db.tx(async (q) => {
    const c = await q.one<{ audience_size: number | null }>('SELECT audience_size FROM campaigns WHERE id = $1 FOR UPDATE', [campaignId]);
    if (!c) throw new Error(`campaign ${campaignId} is not recorded`);
    if (c.audience_size !== null) return c.audience_size;
    const { sql, param } = audienceSelect(audience);
    const rows = await q.query<{ n: number }>(
      `WITH picked AS (${sql}), ins AS (
         INSERT INTO campaign_leads (campaign_id, workspace_id, position, lead_id)
         SELECT $1, $2::uuid, row_number() OVER (), p.* FROM picked p ON CONFLICT DO NOTHING RETURNING 1)
       UPDATE campaigns SET audience_size = (SELECT count(*) FROM ins) WHERE id = $1 RETURNING audience_size AS n`,
      [campaignId, workspaceId, param],
    );
    return rows[0]!.n;
  });
}

/** The workspace's agent's call window (null: none set), or undefined when the workspace has no such agent. */
export async function campaignAgent(
  db: Queryable,
  workspaceId: string,
  agentId: string,
): Promise<{ call_window: { start: string; end: string; days?: string[] } | null } | undefined> {
  return db.one('SELECT call_window FROM agents WHERE workspace_id = $1 AND id = $2', [workspaceId, agentId]);
}
