import type { Queryable } from '../../db/pool';

/** A journey as GET /v1/journeys lists it; position is the keyset cursor's timestamp (microseconds, UTC). */
export interface JourneySummaryRow {
  id: string;
  name: string;
  current_version: number;
  created_at: Date;
  updated_at: Date;
  active_enrollments: number;
  position: string;
}

const SUMMARY = `j.id, j.name, j.created_at, v.version AS current_version, v.created_at AS updated_at,
  to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position,
  (SELECT count(*) FROM enrollments e WHERE e.journey_id = j.id AND e.status = 'active')::int AS active_enrollments
  FROM journeys j
  JOIN LATERAL (SELECT version, created_at FROM journey_versions WHERE journey_id = j.id ORDER BY version DESC LIMIT 1) v ON true`;

/** One page of the workspace's journeys, newest first (created_at, id), after the given position. */
export function listJourneys(db: Queryable, workspaceId: string, limit: number, after?: { createdAt: string; id: string }): Promise<JourneySummaryRow[]> {
  const params: unknown[] = [workspaceId, limit];
  const keyset = after ? `AND (j.created_at, j.id) < ($${params.push(after.createdAt)}::timestamptz, $${params.push(after.id)}::uuid)` : '';
  return db.query<JourneySummaryRow>(`SELECT ${SUMMARY} WHERE j.workspace_id = $1 ${keyset} ORDER BY j.created_at DESC, j.id DESC LIMIT $2`, params);
}

/** One journey of the workspace with its current steps and every version (newest first), or undefined. */
export async function journeyDetail(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<(JourneySummaryRow & { steps: unknown[]; versions: { version: number; created_at: Date; steps: number }[] }) | undefined> {
  const journey = await db.one<JourneySummaryRow>(`SELECT ${SUMMARY} WHERE j.workspace_id = $1 AND j.id = $2`, [workspaceId, id]);
  if (!journey) return undefined;
  const versions = await db.query<{ version: number; created_at: Date; steps: unknown[] }>(
    'SELECT version, created_at, steps FROM journey_versions WHERE workspace_id = $1 AND journey_id = $2 ORDER BY version DESC',
    [workspaceId, id],
  );
  return {
    ...journey,
    steps: versions[0]?.steps ?? [],
    versions: versions.map((v) => ({ version: v.version, created_at: v.created_at, steps: v.steps.length })),
  };
}
