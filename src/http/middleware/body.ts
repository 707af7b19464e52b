import type { Middleware } from 'koa';
import { ApiError, badRequest, payloadTooLarge, unsupportedMediaType } from '../api-error';
import type { AppState } from '../state';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth';

declare module 'koa' {
  interface Request {
    jsonBody?: unknown;
  }
}

// The nesting rule is shared with the lead import's NDJSON lines (src/core/json-depth.ts).
export { MAX_JSON_DEPTH, nestedDeeperThan };

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
