import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';

/** A schedule that starts one workflow every few minutes: what the worker creates for its periodic work. */
export interface IntervalSchedule {
  scheduleId: string;
  everyMinutes: number;
  workflowType: string;
  taskQueue: string;
  args: unknown[];
  typedSearchAttributes: SearchAttributePair[];
}

/**
 * Creates the Temporal Schedule unless it exists (safe on every worker start); a run still going when the next is due
 * makes the next one skipped. Its runs' id is the schedule's with `-run`. Returns true when it created it.
 */
export async function ensureIntervalSchedule(client: Client, s: IntervalSchedule): Promise<boolean> {
  try {
    await client.schedule.create({
      scheduleId: s.scheduleId,
      spec: { intervals: [{ every: `${s.everyMinutes} minutes` }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      action: {
        type: 'startWorkflow',
        workflowType: s.workflowType,
        workflowId: `${s.scheduleId}-run`,
        taskQueue: s.taskQueue,
        args: s.args,
        typedSearchAttributes: s.typedSearchAttributes,
      },
    });
    return true;
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return false;
    throw err;
  }
}
