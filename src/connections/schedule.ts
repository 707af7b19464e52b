import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { runSearchAttributes } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';

/** The schedule's id: one per task-queue prefix (several stacks may share a namespace). */
export const refreshScheduleId = (taskQueuePrefix: string) => (taskQueuePrefix ? `connection-refresh-${taskQueuePrefix}` : 'connection-refresh');

/**
 * Creates the Temporal Schedule that runs refreshExpiringConnections every 10 minutes (tokens expiring within 30
 * minutes are renewed), unless it exists: safe to call on every worker start. Returns true when it created it.
 */
export async function ensureRefreshSchedule(
  client: Client,
  taskQueuePrefix: string,
  opts: { everyMinutes?: number; horizonSeconds?: number } = {},
): Promise<boolean> {
  try {
    await client.schedule.create({
      scheduleId: refreshScheduleId(taskQueuePrefix),
      spec: { intervals: [{ every: `${opts.everyMinutes ?? 10} minutes` }] },
      // A run still going when the next is due: the next is skipped.
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
      action: {
        type: 'startWorkflow',
        workflowType: 'refreshExpiringConnections',
        workflowId: `${refreshScheduleId(taskQueuePrefix)}-run`,
        taskQueue: taskQueue('automations', taskQueuePrefix),
        args: [{ horizonSeconds: opts.horizonSeconds ?? 30 * 60 }],
        typedSearchAttributes: runSearchAttributes.refreshExpiringConnections(),
      },
    });
    return true;
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return false;
    throw err;
  }
}
