import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../core/config';
import type { Db } from '../../db/pool';
import { tooManyRequests, type ApiError } from '../api-error';
import type { Logger } from '../../telemetry/log';
import { RateLimitCounter } from '../../db/rate-limit-counter';
import type { AppState } from '../state';

/** Probes and scrapers call these often from one address; they are cheap and must never be refused. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** The automation routes count the address in their own chain (perAddressInEnvelope), so a refusal wears their envelope. */
const ENVELOPE_PREFIX = '/api/automation/';

/**
 * The api's two limits: per client address (every route but the probes, before auth) and per API key (after auth),
 * which counts a user JWT per user the same way.
 */
export interface RateLimits {
  perAddress: Middleware<AppState>;
  /** The same per-address limit, for the automation routes' chain (perAddress lets their paths through). */
  perAddressInEnvelope: Middleware<AppState>;
  /** Per API key, or per user for a request authenticated by a user JWT (the same limit, RATE_LIMIT_PER_KEY). */
  perKey: Middleware<AppState>;
  /** A separate per-address limit for one group of unauthenticated routes (e.g. chat sessions); 0: none. */
  perAddressOf(group: string, limit: number): Middleware<AppState>;
  /**
   * Counts a request that never reaches the middleware (a WebSocket upgrade) as perAddress does, and against a group's
   * limit when given: the refusal (429), or undefined.
   */
  countAddress(ip: string, group?: { name: string; limit: number }): ApiError | undefined;
  /** Requests refused so far by this process, by limit (address, api_key, user, or a group's name). */
  refusals(): Record<string, number>;
  close(): Promise<void>;
}

/** Builds both limits on one shared counter; a limit of 0 turns that limit off. */
export function createRateLimits(
  deps: { db: Db; logger: Logger },
  config: Pick<Config, 'RATE_LIMIT_PER_KEY' | 'RATE_LIMIT_PER_ADDRESS' | 'RATE_LIMIT_WINDOW_SECONDS' | 'RATE_LIMIT_SYNC_MS'>,
): RateLimits {
  const seconds = config.RATE_LIMIT_WINDOW_SECONDS;
  const counter = new RateLimitCounter(deps.db, deps.logger, seconds * 1000, config.RATE_LIMIT_SYNC_MS);
  const refused: Record<string, number> = {};
  const refuse = (limit: number, per: string, retryAfter: number, name: string) => {
    refused[name] = (refused[name] ?? 0) + 1;
    return tooManyRequests(`Too many requests: at most ${limit} per ${seconds} s per ${per}; retry in ${retryAfter} s`, retryAfter);
  };

  // Hashed: the counters table holds no client addresses. Clients are few next to requests, so each hash is kept.
  const buckets = new LRUCache<string, string>({ max: 10_000 });
  const addressBucket = (ip: string) => {
    let bucket = buckets.get(ip);
    if (bucket === undefined) buckets.set(ip, (bucket = `addr:${createHash('sha256').update(ip).digest('base64url').slice(0, 22)}`));
    return bucket;
  };

  const overAddress = (ip: string): ApiError | undefined => {
    const limit = config.RATE_LIMIT_PER_ADDRESS;
    const wait = limit === 0 ? undefined : counter.hit(addressBucket(ip), limit);
    return wait === undefined ? undefined : refuse(limit, 'client address', wait, 'address');
  };
  const overGroup = (group: string, limit: number, ip: string): ApiError | undefined => {
    const wait = limit === 0 ? undefined : counter.hit(`${group}:${addressBucket(ip)}`, limit);
    return wait === undefined ? undefined : refuse(limit, 'client address', wait, group);
  };

  const perAddressInEnvelope: Middleware<AppState> = (ctx, next) => {
    const refusal = overAddress(ctx.ip);
    if (refusal) throw refusal;
    return next();
  };
  const perAddress: Middleware<AppState> = (ctx, next) =>
    UNLIMITED_PATHS.has(ctx.path) || ctx.path.startsWith(ENVELOPE_PREFIX) ? next() : perAddressInEnvelope(ctx, next);

  const perKey: Middleware<AppState> = (ctx, next) => {
    const limit = config.RATE_LIMIT_PER_KEY;
    const key = ctx.state.auth?.apiKeyId;
    // A user JWT (key-or-user, no-code and automation routes) sets no key: its user is counted instead.
    const user = key ? undefined : (ctx.state.nocode?.userId ?? ctx.state.automation?.userId ?? undefined);
    if (limit === 0 || (!key && !user)) return next();
    const wait = counter.hit(key ? `key:${key}` : `user:${user}`, limit);
    if (wait !== undefined) throw key ? refuse(limit, 'API key', wait, 'api_key') : refuse(limit, 'user', wait, 'user');
    return next();
  };

  const perAddressOf =
    (group: string, limit: number): Middleware<AppState> =>
    (ctx, next) => {
      const refusal = overGroup(group, limit, ctx.ip);
      if (refusal) throw refusal;
      return next();
    };

  const countAddress = (ip: string, group?: { name: string; limit: number }) => overAddress(ip) ?? (group ? overGroup(group.name, group.limit, ip) : undefined);

  return { perAddress, perAddressInEnvelope, perKey, perAddressOf, countAddress, refusals: () => ({ ...refused }), close: () => counter.close() };
}
