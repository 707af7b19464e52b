import type { Queryable } from '../../db/pool';

/** One automation run as stored (request and data already redacted). */
export interface AutomationRunRow {
  id: string;
  workspace_id: string;
  user_id: string | null;
  automation_type: string;
  action: string;
  node_id: string | null;
  status: 'running' | 'succeeded' | 'failed';
  success: boolean | null;
  error: string | null;
  error_type: string | null;
  data: unknown;
  request: unknown;
  attempts: number;
  run_attempts: number;
  /** Tries known to have changed nothing at the vendor (migration 021). */
  unsent_tries: number;
  superuser: boolean;
  workflow_id: string | null;
  async: boolean;
  duration_ms: number | null;
  created_at: Date;
  finished_at: Date | null;
}

type RunRowInput = {
  id: string;
  workspaceId: string;
  userId: string | null;
  automationType: string;
  action: string;
  nodeId: string | null;
  request: unknown;
  superuser: boolean;
  workflowId: string;
  async: boolean;
};

/**
 * Counts one more execution of a run (recording the run when the api did not, e.g. a journey step's): the new count
 * and how many earlier tries are known to have sent nothing, or the row when the run already ended (an execution that
 * finished before its worker died: not run again).
 */
export async function beginAutomationAttempt(
  db: Queryable,
  r: RunRowInput,
  /** The count to record when the run has no row yet (tries that may have run without recording themselves, plus this one). */
  firstCount = 1,
): Promise<{ runAttempts: number; unsentTries: number } | { ended: AutomationRunRow }> {
  const bumped = await db.one<{ run_attempts: number; unsent_tries: number }>(
    `INSERT INTO automation_runs (id, workspace_id, user_id, automation_type, action, node_id, request, superuser, workflow_id, async, run_attempts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (id) DO UPDATE SET run_attempts = automation_runs.run_attempts + 1
       WHERE automation_runs.status = 'running' AND automation_runs.workspace_id = $2
     RETURNING run_attempts, unsent_tries`,
    [r.id, r.workspaceId, r.userId, r.automationType, r.action, r.nodeId, JSON.stringify(r.request), r.superuser, r.workflowId, r.async, firstCount],
  );
  if (bumped) return { runAttempts: bumped.run_attempts, unsentTries: bumped.unsent_tries };
  const ended = await findAutomationRun(db, r.workspaceId, r.id);
  if (!ended) throw new Error('automation run id taken by another workspace');
  return { ended };
}

/**
 * Records that the current try (the run's `runAttempts`th) changed nothing at the vendor and is about to be retried,
 * recording the run when no try has yet.
 */
export async function recordUnsentTry(db: Queryable, r: RunRowInput, runAttempts: number): Promise<void> {
  await db.query(
    `INSERT INTO automation_runs (id, workspace_id, user_id, automation_type, action, node_id, request, superuser, workflow_id, async, run_attempts, unsent_tries)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1)
     ON CONFLICT (id) DO UPDATE SET unsent_tries = automation_runs.unsent_tries + 1
       WHERE automation_runs.status = 'running' AND automation_runs.workspace_id = $2`,
    [r.id, r.workspaceId, r.userId, r.automationType, r.action, r.nodeId, JSON.stringify(r.request), r.superuser, r.workflowId, r.async, runAttempts],
  );
}

/**
 * Records a run's ending in one statement: inserts it ended when no row records it yet (a first try that skipped
 * beginAutomationAttempt), or ends the running row. The first ending wins (a replayed activity cannot overwrite it):
 * false when the run had already ended.
 */
export async function settleAutomationRun(
  db: Queryable,
  r: Omit<RunRowInput, 'workflowId'> & { workflowId: string | null },
  o: { success: boolean; error: string | null; errorType: string | null; data: unknown; attempts: number; runAttempts: number; durationMs: number },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO automation_runs (id, workspace_id, user_id, automation_type, action, node_id, request, superuser, workflow_id, async,
       status, success, error, error_type, data, attempts, run_attempts, duration_ms, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11 THEN 'succeeded' ELSE 'failed' END, $11, $12, $13, $14, $15, $16, $17, now())
     ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, success = EXCLUDED.success, error = EXCLUDED.error, error_type = EXCLUDED.error_type,
       data = EXCLUDED.data, attempts = EXCLUDED.attempts, run_attempts = EXCLUDED.run_attempts, duration_ms = EXCLUDED.duration_ms, finished_at = now()
     WHERE automation_runs.status = 'running' AND automation_runs.workspace_id = EXCLUDED.workspace_id
     RETURNING id`,
    [
      r.id,
      r.workspaceId,
      r.userId,
      r.automationType,
      r.action,
      r.nodeId,
      JSON.stringify(r.request),
      r.superuser,
      r.workflowId,
      r.async,
      o.success,
      o.error,
      o.errorType,
      JSON.stringify(o.data ?? null),
      o.attempts,
      o.runAttempts,
      o.durationMs,
    ],
  );
  return rows.length === 1;
}

/** One run of a workspace, or undefined (another workspace's run is not found). */
export async function findAutomationRun(db: Queryable, workspaceId: string, id: string): Promise<AutomationRunRow | undefined> {
  return db.one<AutomationRunRow>(`SELECT * FROM automation_runs WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
}

/** The lead's most recent call (its first leg), for an automation's callData; undefined when it has none. */
export async function lastCallOfLead(db: Queryable, workspaceId: string, leadId: string): Promise<Record<string, unknown> | undefined> {
  return db.one(
    `SELECT id AS call_id, phone_to, phone_from, direction, status, disposition, answered_by, transferred AS transfer, call_start, call_end
     FROM calls WHERE workspace_id = $1 AND lead_id = $2 AND leg = 0 ORDER BY created_at DESC LIMIT 1`,
    [workspaceId, leadId],
  );
}
