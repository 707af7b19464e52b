import type { NativeConnection, Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';

const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = temporal.api.enums.v1.TaskQueueType;

/**
 * Resolves once the server lists every worker among the pollers of its task queue (workflow or activity tasks), that
 * is once work sent now is picked up; rejects when a worker stops first or after timeoutMs.
 */
export async function untilPolling(connection: NativeConnection, workers: Worker[], opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  const waiting = new Set(workers);
  while (waiting.size) {
    for (const w of [...waiting]) {
      const state = w.getState();
      if (state !== 'INITIALIZED' && state !== 'RUNNING') throw new Error(`the ${w.options.taskQueue} worker is ${state.toLowerCase()}`);
      if (await polls(connection, w)) waiting.delete(w);
    }
    if (!waiting.size) return;
    if (Date.now() > deadline) throw new Error(`not polling after ${opts.timeoutMs ?? 60_000} ms: ${[...waiting].map((w) => w.options.taskQueue).join(', ')}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

async function polls(connection: NativeConnection, w: Worker): Promise<boolean> {
  for (const taskQueueType of [TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY]) {
    const res = await connection.workflowService.describeTaskQueue({ namespace: w.options.namespace, taskQueue: { name: w.options.taskQueue }, taskQueueType });
    if (res.pollers.some((p) => p.identity === w.options.identity)) return true;
  }
  return false;
}
