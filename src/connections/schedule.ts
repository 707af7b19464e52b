import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from '../temporal/interval-schedule';
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
  return ensureIntervalSchedule(client, {
    scheduleId: refreshScheduleId(taskQueuePrefix),
    everyMinutes: opts.everyMinutes ?? 10,
    workflowType: 'refreshExpiringConnections',
    taskQueue: taskQueue('automations', taskQueuePrefix),
    args: [{ horizonSeconds: opts.horizonSeconds ?? 30 * 60 }],
    typedSearchAttributes: runSearchAttributes.refreshExpiringConnections(),
  });
}
