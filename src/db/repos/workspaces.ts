import { randomUUID } from 'node:crypto';
import type { Queryable } from '../pool';

export interface WorkspaceRow {
  id: string;
  name: string;
  default_region: string;
  timezone: string;
  created_at: Date;
}

export async function createWorkspace(
  db: Queryable,
  w: { name: string; defaultRegion?: string; timezone?: string },
): Promise<WorkspaceRow> {
  const row = await db.one<WorkspaceRow>(
    `INSERT INTO workspaces (id, name, default_region, timezone) VALUES ($1, $2, $3, $4) RETURNING *`,
    [randomUUID(), w.name, w.defaultRegion ?? 'US', w.timezone ?? 'America/New_York'],
  );
  return row!;
}

export async function getWorkspace(db: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  return db.one<WorkspaceRow>('SELECT * FROM workspaces WHERE id = $1', [id]);
}
