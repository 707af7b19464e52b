import type { Queryable } from '../../db/pool';

/** A dropdown entry as no-code platforms show it. */
export interface OptionRow {
  label: string;
  value: string;
}

/** The workspace itself (a user or key belongs to exactly one). */
export function workspaceOptions(db: Queryable, workspaceId: string): Promise<OptionRow[]> {
  return db.query<OptionRow>('SELECT name AS label, id::text AS value FROM workspaces WHERE id = $1', [workspaceId]);
}

/** The workspace's journeys that have a version, by name. */
export function journeyOptions(db: Queryable, workspaceId: string): Promise<OptionRow[]> {
  return db.query<OptionRow>(
    `SELECT j.name AS label, j.id::text AS value FROM journeys j
     WHERE j.workspace_id = $1 AND EXISTS (SELECT 1 FROM journey_versions v WHERE v.journey_id = j.id)
     ORDER BY j.name, j.id LIMIT 1000`,
    [workspaceId],
  );
}

/** The workspace's agents, by name. */
export function agentOptions(db: Queryable, workspaceId: string): Promise<OptionRow[]> {
  return db.query<OptionRow>('SELECT name AS label, id::text AS value FROM agents WHERE workspace_id = $1 ORDER BY name, id LIMIT 1000', [workspaceId]);
}

/** The steps of the journey's newest version as stored; undefined when the workspace has no such journey. */
export async function currentJourneySteps(db: Queryable, workspaceId: string, journeyId: string): Promise<unknown[] | undefined> {
  const row = await db.one<{ steps: unknown[] }>(
    'SELECT steps FROM journey_versions WHERE workspace_id = $1 AND journey_id = $2 ORDER BY version DESC LIMIT 1',
    [workspaceId, journeyId],
  );
  return row?.steps;
}
