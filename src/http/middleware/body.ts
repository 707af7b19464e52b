import type { Middleware } from 'koa';
import { ApiError, badRequest, payloadTooLarge, unsupportedMediaType } from '../api-error';
import type { AppState } from '../state';

declare module 'koa' {
  interface Request {
    jsonBody?: unknown;
  }
}

/** The deepest nesting of arrays and objects a JSON body may have (deeper: 400); code walking a body may recurse. */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests arrays and objects deeper than `max` (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Reads a JSON body (bounded size) into ctx.request.jsonBody; bad JSON → 400, nested deeper than MAX_JSON_DEPTH → 400,
 * too large → 413.
 */
export function jsonBody(limitBytes = 1_048_576): Middleware<AppState> {
  return async (ctx, next) => {
    const length = Number(ctx.get('content-length') || 0);
    if (length > limitBytes) throw payloadTooLarge(`Request body exceeds ${limitBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of ctx.req) {
        size += (chunk as Buffer).length;
        if (size > limitBytes) throw payloadTooLarge(`Request body exceeds ${limitBytes} bytes`);
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      // A broken stream (bad chunked encoding, a client gone mid-body) is the client's doing, not a 500.
      throw err instanceof ApiError ? err : badRequest('Request body could not be read');
    }
    if (size === 0) {
      ctx.request.jsonBody = undefined;
      return next();
    }
    if (!ctx.is('application/json', '+json')) throw unsupportedMediaType();
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      ctx.request.jsonBody = JSON.parse(text);
    } catch {
      throw badRequest('Request body is not valid JSON');
    }
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw badRequest(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    return next();
  };
}
