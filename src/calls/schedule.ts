import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from '../temporal/interval-schedule';
import { runSearchAttributes } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';

/** The schedule's id: one per task-queue prefix (several stacks may share a namespace). */
export const reclaimScheduleId = (taskQueuePrefix: string) => (taskQueuePrefix ? `call-reclaim-${taskQueuePrefix}` : 'call-reclaim');

/**
 * Creates the Temporal Schedule that runs reclaimUnstartedCalls every 10 minutes on the calls queue (api calls older
 * than 10 minutes whose workflow never started are deleted, their slots freed), unless it exists: safe to call on every
 * worker start. Returns true when it created it.
 */
export async function ensureReclaimSchedule(
  client: Client,
  taskQueuePrefix: string,
  opts: { everyMinutes?: number; olderThanSeconds?: number } = {},
): Promise<boolean> {
  return ensureIntervalSchedule(client, {
    scheduleId: reclaimScheduleId(taskQueuePrefix),
    everyMinutes: opts.everyMinutes ?? 10,
    workflowType: 'reclaimUnstartedCalls',
    taskQueue: taskQueue('calls', taskQueuePrefix),
    args: [{ olderThanSeconds: opts.olderThanSeconds ?? 10 * 60 }],
    typedSearchAttributes: runSearchAttributes.reclaimUnstartedCalls(),
  });
}
