/** Task queues, split by kind of work so each can be scaled and rate-limited on its own. */
export const TASK_QUEUE_KINDS = ['journeys', 'calls', 'automations', 'chat'] as const;
export type TaskQueueKind = (typeof TASK_QUEUE_KINDS)[number];

/** A queue's name; the prefix lets several stacks (tests, benchmarks) share one Temporal namespace. */
export const taskQueue = (kind: TaskQueueKind, prefix = ''): string => (prefix ? `${prefix}-${kind}` : kind);

/** The journeys queue's preview twin: journey runs there use recorder activities (no side effects). */
export const previewTaskQueue = (prefix = ''): string => `${taskQueue('journeys', prefix)}-preview`;
