import { isGrpcServiceError } from '@temporalio/client';

// gRPC status codes (the SDK's own, from @grpc/grpc-js): no answer in time (4), the server shedding load (8), no
// connection (14). The call may succeed when retried later.
const ENGINE_DOWN: ReadonlySet<number> = new Set([4, 8, 14]);

/** True when a Temporal client call failed because the server could not be reached or would not serve it now (a 503), not because of the call. */
export function engineUnreachable(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (isGrpcServiceError(e) && ENGINE_DOWN.has(e.code)) return true;
  }
  return false;
}
