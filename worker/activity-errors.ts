import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { DomainError } from '../src/errors';

/**
 * The activity boundary: a DomainError leaving any activity becomes a non-retryable ApplicationFailure whose type is
 * its code (retrying cannot fix broken rules); everything else keeps the SDK's handling (retryable unless marked).
 */
export const domainErrorsAreFinal: ActivityInterceptorsFactory = () => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (err) {
        if (err instanceof DomainError) throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: true, cause: err });
        throw err;
      }
    },
  },
});
