import pino, { type Logger, type LoggerOptions } from 'pino';

/**
 * The process logger. Personal data (phones, names, emails, keys) is never logged; redact guards mistakes.
 * `buffered` (the api): lines leave asynchronously and are coalesced into fewer writes under load instead of one
 * write call per request line; pino flushes what is left when the process exits.
 */
export function createLogger(level: string, name: string, opts: { buffered?: boolean } = {}): Logger {
  const options: LoggerOptions = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-key"]',
        ...['phone', 'email', 'password', 'api_key', 'first_name', 'last_name'].flatMap((k) => [k, `*.${k}`]),
      ],
      censor: '[redacted]',
    },
  };
  return opts.buffered ? pino(options, pino.destination({ dest: 1, sync: false })) : pino(options);
}
export type { Logger };
