import { isGrpcServiceError } from '@temporalio/client';

// gRPC status codes (the SDK's own, from @grpc/grpc-js): no answer in time (4), the server shedding load (8), no
// connection (14). The call may succeed when retried later.
const ENGINE_DOWN: ReadonlySet<number> = new Set([4, 8, 14]);

// FAILED_PRECONDITION (9): the server refuses an Update while the run's last workflow task failed; Temporal retries
// that task, so the Update may be taken later.
const RUN_CANNOT_TAKE_UPDATE: ReadonlySet<number> = new Set([9]);

/** True when err, or an error in its cause chain, is a gRPC status in codes. */
function grpcStatusIn(err: unknown, codes: ReadonlySet<number>): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (isGrpcServiceError(e) && codes.has(e.code)) return true;
  }
  return false;
}

/** True when a Temporal client call failed because the server could not be reached or would not serve it now (a 503), not because of the call. */
export function engineUnreachable(err: unknown): boolean {
  return grpcStatusIn(err, ENGINE_DOWN);
}

/** True when the server refused an Update because its run cannot take one now (a 503: retry), not because of the call. */
export function runCannotTakeUpdate(err: unknown): boolean {
  return grpcStatusIn(err, RUN_CANNOT_TAKE_UPDATE);
}
