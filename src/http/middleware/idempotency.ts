import { createHash } from 'node:crypto';
import type { Middleware, ParameterizedContext } from 'koa';
import type { Db } from '../../db/pool';
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  findIdempotencyRecord,
  releaseIdempotencyKey,
  storeIdempotentResponse,
  type IdempotencyScope,
} from '../db/idempotency';
import { ApiError, badRequest, conflict, failureBody, payloadTooLarge } from '../api-error';
import { knownErrorStatus } from '../error-status';
import { nameRun } from '../run-link';
import type { RunUrlSettings } from '../../temporal/run-url';
import type { AppState } from '../state';
import { MAX_JSON_DEPTH } from './body';

const KEY = /^[\x20-\x7e]{1,255}$/;

/** The REST routes' scope: the API key that sent the request. */
const apiKeyScope = (ctx: ParameterizedContext<AppState>): IdempotencyScope | undefined =>
  ctx.state.auth && { workspaceId: ctx.state.auth.workspaceId, caller: `key:${ctx.state.auth.apiKeyId}` };

/**
 * `Idempotency-Key` on a route: the first request with a key claims it (a row with no status yet, inside the
 * (workspace, caller, key) primary key: each API key or user has its own keys), runs, and stores its response; the
 * same caller's same key with the same request replays that response with `Idempotent-Replayed: true`. A different
 * request → 409; a duplicate while the first runs → 409. A 5xx or 429 releases the claim so a retry runs again.
 * Records live 24 h; a claim left by a crash, 5 minutes.
 * streamedBody: the route streams its body itself (ctx.state.bodyDigest once read whole), so the claim holds the hash
 * without the body, and the response is stored with the full hash; a retry after it reads its body through (never
 * keeping it, and no more than the route's limitBytes: 413 beyond, as the route itself answers) to compare. An answer given before the body was read whole (a malformed or too large file) is not kept.
 * The run an answer named (Switchboard-Workflow-Id and Link, src/http/run-link.ts) is stored with it and named again
 * on a replay, by the settings `runs`.
 */
export function idempotency(
  db: Db,
  runs: RunUrlSettings,
  scopeOf: (ctx: ParameterizedContext<AppState>) => IdempotencyScope | undefined = apiKeyScope,
  opts: { streamedBody?: { limitBytes: number } } = {},
): Middleware<AppState> {
  let lastCleanup = 0;
  return async (ctx, next) => {
    const key = ctx.request.headers['idempotency-key'];
    const scope = scopeOf(ctx);
    if (key === undefined || !scope) return next();
    if (typeof key !== 'string' || !KEY.test(key)) throw badRequest('Idempotency-Key: must be 1–255 printable ASCII characters');
    const hash = requestHash(ctx);
    if (Date.now() - lastCleanup > 60_000) {
      lastCleanup = Date.now();
      deleteExpiredIdempotencyKeys(db).catch(() => undefined);
    }

    for (let attempt = 0; ; attempt++) {
      if (await claimIdempotencyKey(db, scope, key, hash)) break;
      const row = await findIdempotencyRecord(db, scope, key);
      if (!row && attempt < 2) continue; // released by a failed first request a moment ago: claim it now
      const seen = row && opts.streamedBody && row.status_code !== null ? withBody(hash, ctx, await drainDigest(ctx, opts.streamedBody.limitBytes)) : hash;
      if (row && !row.request_hash.equals(seen)) throw conflict('Idempotency-Key was already used with a different request');
      if (!row || row.status_code === null) throw conflict('request with this Idempotency-Key is in progress');
      ctx.status = row.status_code;
      ctx.body = row.response_body;
      if (row.workflow_id) nameRun(ctx, runs, row.workflow_id);
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }

    const release = () => releaseIdempotencyKey(db, scope, key);
    const finish = async (status: number, body: unknown) => {
      const fullHash = opts.streamedBody && ctx.state.bodyDigest ? withBody(hash, ctx, ctx.state.bodyDigest) : undefined;
      try {
        if (status >= 500 || status === 429 || !isJson(body) || (opts.streamedBody && !fullHash)) await release();
        else await storeIdempotentResponse(db, scope, key, { status, body, workflowId: ctx.state.workflowId }, fullHash);
      } catch (err) {
        // The response still goes out; without a record a retry runs again rather than waiting on a stale claim.
        ctx.state.log.warn({ err: (err as Error).message }, 'could not record an idempotent response');
        await release().catch(() => undefined);
      }
    };
    try {
      await next();
    } catch (err) {
      const status = knownErrorStatus(err);
      if (status !== undefined) await finish(status, failureBody((err as Error).message));
      else await finish(500, undefined);
      throw err;
    }
    await finish(ctx.status, ctx.body);
  };
}

/** SHA-256 of method, path, query and the body with object keys sorted (so key order does not matter). */
function requestHash(ctx: ParameterizedContext<AppState>): Buffer {
  const canonical = JSON.stringify([ctx.method, ctx.path, canonicalize(ctx.query, 0), canonicalize(ctx.request.jsonBody ?? null, 0)]);
  return createHash('sha256').update(canonical).digest();
}

/** A streamed request's full hash: the hash without its body, its media type and its body's digest. */
const withBody = (hash: Buffer, ctx: ParameterizedContext<AppState>, digest: Buffer) =>
  createHash('sha256').update(hash).update(ctx.get('content-type')).update(digest).digest();

/**
 * Reads a streamed body through for its SHA-256 (a retry of a stored request: nothing else reads it), at most
 * limitBytes of it (413 beyond, the connection then closed rather than the rest of the body read).
 */
async function drainDigest(ctx: ParameterizedContext<AppState>, limitBytes: number): Promise<Buffer> {
  const tooLarge = () => {
    ctx.res.shouldKeepAlive = false;
    return payloadTooLarge(`The file exceeds ${limitBytes} bytes`);
  };
  if (Number(ctx.get('content-length') || 0) > limitBytes) throw tooLarge();
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > limitBytes) throw tooLarge();
      hash.update(chunk as Buffer);
    }
  } catch (err) {
    throw err instanceof ApiError ? err : badRequest('Request body could not be read');
  }
  return hash.digest();
}

function canonicalize(value: unknown, depth: number): unknown {
  if (depth > MAX_JSON_DEPTH) throw badRequest(`body: nested more than ${MAX_JSON_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.map((v) => canonicalize(v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonicalize((value as Record<string, unknown>)[k], depth + 1)]),
  );
}

const isJson = (body: unknown) =>
  typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function';
