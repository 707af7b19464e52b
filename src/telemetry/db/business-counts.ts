import type { Queryable } from '../../db/pool';

/** Rows by label values, for the api's business metrics (one statement; counted across every workspace). */
export interface BusinessCounts {
  calls: { status: string; outcome: string; n: number }[];
  enrollments: { status: string; n: number }[];
  automationRuns: { integration: string; outcome: string; n: number }[];
}

/** Calls (not their transfer legs) by status and outcome, enrollments by status, automation runs by integration and status. */
export async function businessCounts(db: Queryable): Promise<BusinessCounts> {
  const rows = await db.query<{ kind: 'calls' | 'enrollments' | 'automationRuns'; a: string; b: string; n: number }>(
    `SELECT 'calls' AS kind, status AS a, coalesce(outcome, 'none') AS b, count(*)::int AS n FROM calls WHERE parent_id IS NULL GROUP BY 2, 3
     UNION ALL SELECT 'enrollments', status, '', count(*)::int FROM enrollments GROUP BY 2
     UNION ALL SELECT 'automationRuns', automation_type, status, count(*)::int FROM automation_runs GROUP BY 2, 3`,
  );
  const of = (kind: string) => rows.filter((r) => r.kind === kind);
  return {
    calls: of('calls').map((r) => ({ status: r.a, outcome: r.b, n: r.n })),
    enrollments: of('enrollments').map((r) => ({ status: r.a, n: r.n })),
    automationRuns: of('automationRuns').map((r) => ({ integration: r.a, outcome: r.b, n: r.n })),
  };
}
