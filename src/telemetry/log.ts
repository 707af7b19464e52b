import pino, { type Logger, type LoggerOptions } from 'pino';
import { traceIds } from './log-context';

/** The LOG_FORMAT setting: auto picks pretty for a terminal and JSON for everything else. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Resolves auto against whether stdout is a terminal: people read terminals, machines read the rest. */
export function resolveLogFormat(format: LogFormat, stdoutIsTTY = Boolean(process.stdout.isTTY)): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return stdoutIsTTY ? 'pretty' : 'json';
}

/**
 * Options for pino's own pretty transport (pino-pretty, in a worker thread): one short line per entry. No key is
 * error-like, so an error is printed inline like any object, not as a multi-line stack.
 */
function prettyTransport(colorize: boolean): pino.TransportSingleOptions {
  return {
    target: 'pino-pretty',
    options: { colorize, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination: 1, errorLikeObjectKeys: [] },
  };
}

/**
 * Errors under `err` or `error` (the Temporal SDK logs `error`): type, message and cause in both formats; the stack in
 * JSON (a string: still one line), only its first frame (`at`) in a terminal.
 */
function errorSerializer(pretty: boolean) {
  const brief = (e: unknown, depth = 0): unknown => {
    if (!(e instanceof Error)) return e;
    const at = e.stack
      ?.split('\n')
      .find((l) => l.trimStart().startsWith('at '))
      ?.trim()
      .slice(3);
    const failureType = (e as { type?: unknown }).type; // a Temporal ApplicationFailure's type
    return {
      type: e.name,
      ...(typeof failureType === 'string' ? { failureType } : {}),
      message: e.message,
      ...(at ? { at } : {}),
      ...(e.cause && depth < 3 ? { cause: brief(e.cause, depth + 1) } : {}),
    };
  };
  return pretty ? (e: unknown) => brief(e) : (e: unknown) => (e instanceof Error ? pino.stdSerializers.errWithCause(e) : e);
}

// A request line is about 150 bytes: a write every ~25 lines at saturation, while a line waits at most FLUSH_MS.
const BUFFER_BYTES = 4096;
const FLUSH_MS = 250;

/**
 * The process logger. Personal data (phones, names, emails, keys) is never logged; redact guards mistakes.
 * `format` (LOG_FORMAT, default json). `buffered` (the api, JSON only): lines are gathered into writes of at least
 * BUFFER_BYTES (one write call per a few dozen request lines under load, not one each), and what is gathered leaves at
 * least every FLUSH_MS when traffic is light; pino flushes what is left at exit.
 */
export function createLogger(level: string, name: string, opts: { format?: LogFormat; buffered?: boolean } = {}): Logger {
  const pretty = resolveLogFormat(opts.format ?? 'json') === 'pretty';
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
    serializers: { err: errorSerializer(pretty), error: errorSerializer(pretty) },
    mixin: traceIds,
    ...(pretty ? { transport: prettyTransport(Boolean(process.stdout.isTTY)) } : {}),
  };
  return opts.buffered && !pretty ? pino(options, pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES, periodicFlush: FLUSH_MS })) : pino(options);
}
export type { Logger };
