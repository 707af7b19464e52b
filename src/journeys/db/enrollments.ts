import type { Db, Queryable } from '../../db/pool';

export interface EnrollmentRow {
  id: string;
  workspace_id: string;
  journey_id: string;
  journey_version: number;
  lead_id: string;
  workflow_id: string;
  run_id: string | null;
  status: 'active' | 'completed' | 'unenrolled' | 'failed';
  current_step: string | null;
  detail: string | null;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

/**
 * Records an enrollment as active (idempotent: its id comes from the workflow). Only one run of a journey for a
 * lead can be open (the workflow id decides), so an older row still marked active lost its run without closing:
 * it is marked failed first, keeping the one-active-row rule.
 */
export async function recordEnrollmentStart(
  db: Db,
  e: { id: string; workspaceId: string; journeyId: string; version: number; leadId: string; workflowId: string; runId: string; currentStep: string },
): Promise<void> {
  await db.tx(async (q) => {
    await q.query(
      `UPDATE enrollments SET status = 'failed', detail = 'superseded: its run ended without reporting', ended_at = now(), updated_at = now()
       WHERE workspace_id = $4 AND journey_id = $1 AND lead_id = $2 AND status = 'active' AND id <> $3`,
      [e.journeyId, e.leadId, e.id, e.workspaceId],
    );
    await q.query(
      `INSERT INTO enrollments (id, workspace_id, journey_id, journey_version, lead_id, workflow_id, run_id, status, current_step)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8)
       ON CONFLICT (id) DO NOTHING`,
      [e.id, e.workspaceId, e.journeyId, e.version, e.leadId, e.workflowId, e.runId, e.currentStep],
    );
  });
}

/** Moves an active enrollment to a step (and the run that now carries it). */
export async function setEnrollmentStep(db: Queryable, id: string, step: string, runId?: string): Promise<void> {
  await db.query(`UPDATE enrollments SET current_step = $2, run_id = COALESCE($3, run_id), updated_at = now() WHERE id = $1 AND status = 'active'`, [
    id,
    step,
    runId ?? null,
  ]);
}

/** Ends an active enrollment; a second call changes nothing (the first end wins). */
export async function finishEnrollment(
  db: Queryable,
  id: string,
  status: 'completed' | 'unenrolled' | 'failed',
  currentStep: string | null,
  detail: string | null,
): Promise<void> {
  await db.query(
    `UPDATE enrollments SET status = $2, current_step = $3, detail = $4, ended_at = now(), updated_at = now()
     WHERE id = $1 AND status = 'active'`,
    [id, status, currentStep, detail],
  );
}

/**
 * Marks failed the lead's enrollments in a journey still recorded as active when Temporal has no open run for them:
 * their run was terminated or timed out, which no workflow code sees. Returns how many rows it ended.
 */
export async function failOrphanedEnrollments(db: Queryable, workspaceId: string, journeyId: string, leadId: string): Promise<number> {
  const rows = await db.query(
    `UPDATE enrollments SET status = 'failed', detail = 'its run ended without reporting (terminated or timed out)', ended_at = now(), updated_at = now()
     WHERE workspace_id = $1 AND journey_id = $2 AND lead_id = $3 AND status = 'active' RETURNING id`,
    [workspaceId, journeyId, leadId],
  );
  return rows.length;
}

/** A lead's enrollments, newest first. */
export async function listLeadEnrollments(db: Queryable, workspaceId: string, leadId: string): Promise<EnrollmentRow[]> {
  return db.query<EnrollmentRow>('SELECT * FROM enrollments WHERE workspace_id = $1 AND lead_id = $2 ORDER BY created_at DESC, id LIMIT 500', [
    workspaceId,
    leadId,
  ]);
}

/** The enrollment as the api shows it. */
export function presentEnrollment(e: EnrollmentRow) {
  return {
    enrollment_id: e.id,
    journey_id: e.journey_id,
    version: e.journey_version,
    status: e.status,
    current_step: e.current_step,
    detail: e.detail,
    started_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
    ended_at: e.ended_at ? e.ended_at.toISOString() : null,
  };
}
