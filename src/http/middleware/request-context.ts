import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { shownPath } from '../shown-path';
import type { AppState, KeyAuth } from '../state';

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Which requests get an info line: every one (production), or only failures, the rest at debug (the dev stack). */
export type RequestLog = 'all' | 'failures';

/** Gives each request an id (the caller's X-Request-Id when sane) and a child logger; logs one line per request. */
export function requestContext(logger: Logger, requestLog: RequestLog = 'all'): Middleware<AppState> {
  // The request line's fields are fixed and never personal data, so it skips the redaction pass (about 5 of its
  // 8 µs) that every other log call keeps.
  const requestLine = logger.child({}, { redact: [] });
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.state = new RequestState(logger, requestId);
    ctx.set('X-Request-Id', requestId);
    // Answers carry stored text (call transcripts, chat messages) as JSON: no browser may sniff one into HTML.
    ctx.set('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path, not the URL: query strings may carry phone numbers; the route's template, so no id or secret segment.
      const failed = ctx.status >= 400;
      const level = requestLog === 'all' || failed ? 'info' : 'debug';
      const line = { requestId, method: ctx.method, path: shownPath(ctx), status: ctx.status, ms };
      requestLine[level](failed ? { ...line, reason: reasonOf(ctx.body) } : line, 'request');
    }
  };
}

// What could identify a person in a failure's message (an echoed phone number or email) is left out of the log.
const PERSONAL = /[^\s@]+@[^\s@]+|\+?\d[\d\s()./-]{5,}\d/g;

/** Why a request failed: the message of its answer (the spec's shape, or the automation envelope's error), scrubbed. */
function reasonOf(body: unknown): string | undefined {
  const b = body as { message?: unknown; error?: unknown } | null | undefined;
  const message = typeof b?.message === 'string' ? b.message : typeof b?.error === 'string' ? b.error : undefined;
  return message?.replace(PERSONAL, '[redacted]').slice(0, 300);
}

/** A request's ctx.state; most requests log nothing but the request line, so the child logger is made on first use. */
class RequestState implements AppState {
  auth?: KeyAuth;
  private child?: Logger;
  constructor(
    private readonly base: Logger,
    public requestId: string,
  ) {}

  get log(): Logger {
    return (this.child ??= this.base.child({ requestId: this.requestId }));
  }

  set log(value: Logger) {
    this.child = value;
  }
}
