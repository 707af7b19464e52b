import type { Logger as SdkLogger, LogLevel, LogMetadata } from '@temporalio/worker';
import type { Logger } from '../src/telemetry/log';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

// Routine SDK lines that say nothing to an operator at info: every worker's state changes, and that it runs no Nexus
// services (none are registered here). Our own `worker polling` line says when the workers are ready.
const ROUTINE = /^(Worker state changed|No Nexus services registered)/;

/** The Temporal SDK's logger interface on top of pino; `quiet` demotes info to debug (bundler chatter). */
export function sdkLogger(logger: Logger, opts: { quiet?: boolean } = {}): SdkLogger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const target = level === 'INFO' && (opts.quiet || ROUTINE.test(message)) ? 'debug' : LEVELS[level];
    logger[target]({ ...meta }, message);
  };
  return {
    log,
    trace: (m, meta) => log('TRACE', m, meta),
    debug: (m, meta) => log('DEBUG', m, meta),
    info: (m, meta) => log('INFO', m, meta),
    warn: (m, meta) => log('WARN', m, meta),
    error: (m, meta) => log('ERROR', m, meta),
  };
}
