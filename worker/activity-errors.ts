import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { DomainError } from '../src/core/errors';

/** The failure type of data Postgres refuses for its content (SQLSTATE class 22): final, like a broken rule. */
const INVALID_DATA = 'invalid_data';

/**
 * Where retryability is decided, once for every activity (the workflows' proxies list no failure types): an
 * ApplicationFailure says it itself; a DomainError (typed by its code) and data Postgres rejects for its content fail
 * the same way on every attempt, so they are final; anything else (a restart, a timeout) retries. (HTTP's ApiError
 * cannot reach an activity: lint keeps src/http out of activities and the domain code they call.)
 */
function atActivityBoundary(err: unknown): unknown {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof DomainError) return ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: true, cause: err });
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('22'))
    return ApplicationFailure.create({ type: INVALID_DATA, message: (err as Error).message, nonRetryable: true });
  return err;
}

/** The activity boundary as a worker interceptor: every activity's failure passes atActivityBoundary. */
export const activityBoundary: ActivityInterceptorsFactory = () => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (err) {
        throw atActivityBoundary(err);
      }
    },
  },
});
