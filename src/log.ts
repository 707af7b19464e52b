import pino, { type Logger } from 'pino';

/** The process logger. Personal data (phones, names, emails, keys) is never logged; redact guards mistakes. */
export function createLogger(level: string, name: string): Logger {
  return pino({
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
  });
}
export type { Logger };
