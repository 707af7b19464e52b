import type { WorkflowClientInterceptor } from '@temporalio/client';
import { google, temporal } from '@temporalio/proto';
import { grpcErrorsIn } from './unreachable';

const { MultiOperationExecutionFailure } = temporal.api.errordetails.v1;
// The type urls of the details, as the server packs them (google.protobuf.Any).
const NOT_READY = 'type.googleapis.com/temporal.api.errordetails.v1.WorkflowNotReadyFailure';
const MULTI_OPERATION = 'type.googleapis.com/temporal.api.errordetails.v1.MultiOperationExecutionFailure';

/** Sends of one update in all, the first included, before its refusal reaches the caller. */
const UPDATE_SENDS = 6;
/** The pause before the second send, give or take half; each later pause doubles it (about 20, 40, 80, 160, 320 ms). */
const FIRST_PAUSE_MS = 20;

/** True when one of a status's details (google.protobuf.Any) is a WorkflowNotReadyFailure, directly or in an operation of update-with-start. */
function notReady(details: google.protobuf.IAny[] | null | undefined): boolean {
  return (details ?? []).some((any) => {
    if (any.type_url === NOT_READY) return true;
    if (any.type_url !== MULTI_OPERATION || !any.value) return false;
    return MultiOperationExecutionFailure.decode(any.value).statuses.some((s) => notReady(s.details));
  });
}

/**
 * True when Temporal refused an Update because the workflow task that carried it failed on the server, e.g. when a
 * new event reached the run while that task was closing it (the server's UnhandledCommand). The task's effects,
 * the Update's acceptance included, were discarded and the run goes on: the same Update can be sent again. It comes
 * as FAILED_PRECONDITION with a WorkflowNotReadyFailure detail (in one of the operations for update-with-start).
 */
export function updateRefusedByFailedTask(err: unknown): boolean {
  for (const e of grpcErrorsIn(err)) {
    if (e.code !== 9) continue;
    const bin = e.metadata?.get('grpc-status-details-bin')[0];
    if (bin !== undefined && notReady(google.rpc.Status.decode(Buffer.from(bin)).details)) return true;
  }
  return false;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms * (0.5 + Math.random())));

/** Calls send until it is not refused by a failed workflow task, UPDATE_SENDS times at most; the last refusal is thrown. */
async function sendAgainWhileRefused<T>(send: () => Promise<T>): Promise<T> {
  for (let sent = 1; ; sent++) {
    try {
      return await send();
    } catch (err) {
      if (sent >= UPDATE_SENDS || !updateRefusedByFailedTask(err)) throw err;
      await pause(FIRST_PAUSE_MS * 2 ** (sent - 1));
    }
  }
}

/**
 * Every client's Updates (plain and with start) are sent again, with the same update id, when the server aborts
 * them for a failed workflow task. Temporal gives that refusal as final so that a worker that keeps failing its
 * tasks does not loop callers forever; a run busy with messages fails a task that closes it as a matter of course,
 * so a few sends, about half a second in all, pass that race while a run that stays broken still answers promptly.
 * With update-with-start, the operation's workflowHandle() keeps the first send's refusal even when a later send
 * succeeds: read the update's result (as src/temporal/start.ts does), not that handle.
 */
export const updateRetryInterceptor: WorkflowClientInterceptor = {
  startUpdate: (input, next) => sendAgainWhileRefused(() => next(input)),
  startUpdateWithStart: (input, next) => sendAgainWhileRefused(() => next(input)),
};
