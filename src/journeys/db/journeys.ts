import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool';

/** The journey id given to an import is another workspace's (nothing was written). */
export class JourneyOfAnotherWorkspace extends Error {
  constructor(readonly journeyId: string) {
    super(`journey ${journeyId} belongs to another workspace`);
  }
}

/** Creates a journey (stable id) with its first version, or adds a version to an existing one. */
export async function importJourney(
  db: Queryable,
  workspaceId: string,
  j: { id?: string; name: string; steps: unknown },
): Promise<{ id: string; version: number }> {
  const id = j.id ?? randomUUID();
  const journey = await db.one(
    `INSERT INTO journeys (id, workspace_id, name) VALUES ($1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name WHERE journeys.workspace_id = EXCLUDED.workspace_id
     RETURNING id`,
    [id, workspaceId, j.name],
  );
  if (!journey) throw new JourneyOfAnotherWorkspace(id);
  const row = await db.one<{ version: number }>(
    `INSERT INTO journey_versions (journey_id, workspace_id, version, steps)
     SELECT $1, $2, COALESCE(MAX(version), 0) + 1, $3 FROM journey_versions WHERE workspace_id = $2 AND journey_id = $1
     RETURNING version`,
    [id, workspaceId, JSON.stringify(j.steps)],
  );
  return { id, version: row!.version };
}

/** One version's steps as stored, when the journey exists in the workspace. */
export async function journeyVersionSteps(db: Queryable, workspaceId: string, journeyId: string, version: number): Promise<unknown> {
  const row = await db.one<{ steps: unknown }>('SELECT steps FROM journey_versions WHERE workspace_id = $2 AND journey_id = $1 AND version = $3', [
    journeyId,
    workspaceId,
    version,
  ]);
  return row?.steps;
}

/** The number of a journey's newest version, when the journey exists in the workspace. */
export async function latestJourneyVersion(db: Queryable, workspaceId: string, journeyId: string): Promise<number | undefined> {
  const row = await db.one<{ version: number | null }>('SELECT max(version) AS version FROM journey_versions WHERE workspace_id = $2 AND journey_id = $1', [
    journeyId,
    workspaceId,
  ]);
  return row?.version ?? undefined;
}
