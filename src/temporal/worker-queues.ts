import { z } from 'zod';
import { TASK_QUEUE_KINDS, type TaskQueueKind } from './task-queues';

/** Per-queue worker limits a deployment sets as WORKER_<QUEUE>_<LIMIT> (default: the SDK's). */
const WORKER_LIMITS = {
  MAX_CONCURRENT_ACTIVITIES: 'maxConcurrentActivityTaskExecutions',
  MAX_CONCURRENT_LOCAL_ACTIVITIES: 'maxConcurrentLocalActivityExecutions',
  MAX_CONCURRENT_WORKFLOW_TASKS: 'maxConcurrentWorkflowTaskExecutions',
  /** Runs kept in the sticky cache (each holds its workflow state in memory; 0: none, every task replays its history). */
  MAX_CACHED_WORKFLOWS: 'maxCachedWorkflows',
} as const;
type LimitName = keyof typeof WORKER_LIMITS;
export type WorkerLimitVariable = `WORKER_${Uppercase<TaskQueueKind>}_${LimitName}`;
/** The SDK's worker options these limits set. */
export type WorkerLimits = Partial<Record<(typeof WORKER_LIMITS)[LimitName], number>>;

const MIN_LIMIT: Record<LimitName, number> = {
  MAX_CONCURRENT_ACTIVITIES: 1,
  MAX_CONCURRENT_LOCAL_ACTIVITIES: 1,
  MAX_CONCURRENT_WORKFLOW_TASKS: 2,
  MAX_CACHED_WORKFLOWS: 0,
};
const limitVariable = (kind: TaskQueueKind, name: LimitName) => `WORKER_${kind.toUpperCase()}_${name}` as WorkerLimitVariable;

/** The zod fields of every WORKER_<QUEUE>_<LIMIT> setting (workflow task slots: at least 2, as the SDK requires; a cache may be 0). */
export const workerLimitFields = Object.fromEntries(
  TASK_QUEUE_KINDS.flatMap((kind) =>
    (Object.keys(WORKER_LIMITS) as LimitName[]).map((name) => [
      limitVariable(kind, name),
      z.coerce
        .number()
        .int()
        .min(MIN_LIMIT[name])
        .max(name === 'MAX_CACHED_WORKFLOWS' ? 1_000_000 : 10_000)
        .optional(),
    ]),
  ),
) as Record<WorkerLimitVariable, z.ZodOptional<z.ZodCoercedNumber>>;

/** WORKER_TASK_QUEUES: the task queues a worker process polls, comma-separated (default all); an unknown one is refused. */
export const workerTaskQueuesField = z
  .string()
  .default(TASK_QUEUE_KINDS.join(','))
  .transform((text, ctx) => {
    const names = [
      ...new Set(
        text
          .split(',')
          .map((q) => q.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = names.filter((q) => !(TASK_QUEUE_KINDS as readonly string[]).includes(q));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown task queue(s) ${unknown.join(', ')}; known: ${TASK_QUEUE_KINDS.join(', ')}` });
    else if (!names.length) ctx.addIssue({ code: 'custom', message: `name at least one of ${TASK_QUEUE_KINDS.join(', ')}` });
    return names as TaskQueueKind[];
  });

/** A queue's limits from the configuration, as worker options. */
export function workerLimits(config: Partial<Record<WorkerLimitVariable, number>>, kind: TaskQueueKind): WorkerLimits {
  const out: WorkerLimits = {};
  for (const name of Object.keys(WORKER_LIMITS) as LimitName[]) {
    const value = config[limitVariable(kind, name)];
    if (value !== undefined) out[WORKER_LIMITS[name]] = value;
  }
  return out;
}
