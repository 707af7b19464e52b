import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool';

export interface WorkspaceRow {
  id: string;
  name: string;
  default_region: string;
  timezone: string;
  created_at: Date;
}

export async function createWorkspace(db: Queryable, w: { name: string; defaultRegion?: string; timezone?: string }): Promise<WorkspaceRow> {
  const row = await db.one<WorkspaceRow>(`INSERT INTO workspaces (id, name, default_region, timezone) VALUES ($1, $2, $3, $4) RETURNING *`, [
    randomUUID(),
    w.name,
    w.defaultRegion ?? 'US',
    w.timezone ?? 'America/New_York',
  ]);
  return row!;
}

export async function getWorkspace(db: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  return db.one<WorkspaceRow>('SELECT * FROM workspaces WHERE id = $1', [id]);
}

/** The workspace's default phone region (ISO 3166), when the workspace exists. */
export async function workspaceDefaultRegion(db: Queryable, id: string): Promise<string | undefined> {
  const row = await db.one<{ default_region: string }>('SELECT default_region FROM workspaces WHERE id = $1', [id]);
  return row?.default_region;
}

/** The workspace's name and the prefix of one of its API keys (GET /v1/me), when both exist. */
export async function workspaceKeyIdentity(db: Queryable, workspaceId: string, apiKeyId: string): Promise<{ name: string; prefix: string } | undefined> {
  return db.one('SELECT w.name, k.prefix FROM workspaces w JOIN api_keys k ON k.workspace_id = w.id WHERE w.id = $1 AND k.workspace_id = $1 AND k.id = $2', [
    workspaceId,
    apiKeyId,
  ]);
}
