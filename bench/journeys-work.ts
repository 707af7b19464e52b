// The work one lead costs each side of P3 (bench/journeys.ts), counted rather than timed so a loaded machine does not
// distort it: Temporal history events, workflow tasks, activity tasks, local activities, child workflows (their own
// histories included) and Postgres statements.
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Db } from '../src/db/pool';

const T = temporal.api.enums.v1.EventType;

/** The counts of one lead's run (and its children). */
export interface Work {
  events: number;
  workflowTasks: number;
  activityTasks: number;
  localActivities: number;
  children: number;
  statements: number;
}

/** Counts every statement sent on the pool's connections from now on (each pooled client's query is wrapped once). */
export function countStatements(db: Db): { take(): number } {
  let n = 0;
  const wrapped = new WeakSet<object>();
  const wrap = (client: { query: (...a: unknown[]) => unknown }) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client);
    client.query = (...a: unknown[]) => (n++, query(...a));
  };
  db.pool.on('connect', wrap as never);
  db.pool.on('acquire', wrap as never);
  return {
    take() {
      const v = n;
      n = 0;
      return v;
    },
  };
}

/** The counts of workflowId's history, its children's added; statements is left for the caller. */
export async function historyWork(client: Client, workflowId: string): Promise<Work> {
  const work: Work = { events: 0, workflowTasks: 0, activityTasks: 0, localActivities: 0, children: 0, statements: 0 };
  const ids = [workflowId];
  for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
    for (const e of (await client.workflow.getHandle(id).fetchHistory()).events ?? []) {
      work.events++;
      if (e.eventType === T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) work.workflowTasks++;
      if (e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) work.activityTasks++;
      if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') work.localActivities++;
      if (e.eventType === T.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED) {
        work.children++;
        ids.push(e.childWorkflowExecutionStartedEventAttributes!.workflowExecution!.workflowId!);
      }
    }
  }
  return work;
}

/** One line per side: the counts, for the figures. */
export const describeWork = (w: Work): string =>
  `${w.events} events, ${w.workflowTasks} workflow tasks, ${w.activityTasks} activity tasks, ${w.localActivities} local activities, ${w.children} child workflows, ${w.statements} Postgres statements`;
