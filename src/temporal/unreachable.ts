import { isGrpcServiceError } from '@temporalio/client';

// gRPC status codes (the SDK's own, from @grpc/grpc-js): no answer in time (4), the server shedding load (8), no
// connection (14). The call may succeed when retried later.
const ENGINE_DOWN: ReadonlySet<number> = new Set([4, 8, 14]);

/** The gRPC errors in err and its cause chain, outermost first (the SDK wraps them in its own errors). */
export function* grpcErrorsIn(err: unknown) {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if (isGrpcServiceError(e)) yield e;
}

/** True when a Temporal client call failed because the server could not be reached or would not serve it now (a 503), not because of the call. */
export function engineUnreachable(err: unknown): boolean {
  for (const e of grpcErrorsIn(err)) if (ENGINE_DOWN.has(e.code)) return true;
  return false;
}
