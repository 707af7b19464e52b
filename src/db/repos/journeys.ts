import { randomUUID } from 'node:crypto';
import type { Queryable } from '../pool';

/** Creates a journey (stable id) with its first version, or adds a version to an existing one. */
export async function importJourney(
  db: Queryable,
  workspaceId: string,
  j: { id?: string; name: string; steps: unknown },
): Promise<{ id: string; version: number }> {
  const id = j.id ?? randomUUID();
  const existing = await db.one<{ workspace_id: string }>('SELECT workspace_id FROM journeys WHERE id = $1', [id]);
  if (existing && existing.workspace_id !== workspaceId) throw new Error(`journey ${id} belongs to another workspace`);
  if (!existing) {
    await db.query('INSERT INTO journeys (id, workspace_id, name) VALUES ($1, $2, $3)', [id, workspaceId, j.name]);
  } else {
    await db.query('UPDATE journeys SET name = $2 WHERE id = $1', [id, j.name]);
  }
  const row = await db.one<{ version: number }>(
    `INSERT INTO journey_versions (journey_id, version, steps)
     SELECT $1, COALESCE(MAX(version), 0) + 1, $2 FROM journey_versions WHERE journey_id = $1
     RETURNING version`,
    [id, JSON.stringify(j.steps)],
  );
  return { id, version: row!.version };
}

/** One version's steps as stored, when the journey exists in the workspace. */
export async function journeyVersionSteps(db: Queryable, workspaceId: string, journeyId: string, version: number): Promise<unknown> {
  const row = await db.one<{ steps: unknown }>(
    `SELECT v.steps FROM journeys j JOIN journey_versions v ON v.journey_id = j.id WHERE j.id = $1 AND j.workspace_id = $2 AND v.version = $3`,
    [journeyId, workspaceId, version],
  );
  return row?.steps;
}

/** The number of a journey's newest version, when the journey exists in the workspace. */
export async function latestJourneyVersion(db: Queryable, workspaceId: string, journeyId: string): Promise<number | undefined> {
  const row = await db.one<{ version: number | null }>(
    `SELECT max(v.version) AS version FROM journeys j JOIN journey_versions v ON v.journey_id = j.id WHERE j.id = $1 AND j.workspace_id = $2`,
    [journeyId, workspaceId],
  );
  return row?.version ?? undefined;
}
