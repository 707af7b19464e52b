import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { API_KEYS_CHANNEL, findLiveKey, touchApiKey, type ApiKeyScope } from '../../workspaces/db/api-keys';
import type { Db } from '../../db/pool';
import type { Listener } from '../../db/listen';
import { forbidden, unauthorized } from '../../http/api-error';
import type { AppState, KeyAuth } from '../../http/state';
import { expiringCache } from '../../core/expiring-cache';

/**
 * Resolves API keys to their workspace with a short-lived cache, so the hot path costs no extra query.
 * Revocations reach every api process at once through NOTIFY api_keys_changed; the TTL bounds staleness
 * should the listening connection be down.
 */
export class ApiKeyResolver {
  private readonly cache: LRUCache<string, KeyAuth>;
  private listener?: Listener;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    opts: { ttlMs?: number; maxKeys?: number } = {},
  ) {
    // Full, it forgets the least recently used key, not every key (each forgotten key costs a query).
    this.cache = expiringCache({ max: opts.maxKeys ?? 10_000, ttlMs: opts.ttlMs ?? 15_000 });
  }

  async resolve(key: string): Promise<KeyAuth | undefined> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = await findLiveKey(this.db, key);
    if (!row) {
      this.cache.delete(key);
      return undefined;
    }
    const auth = { workspaceId: row.workspace_id, apiKeyId: row.id, superuser: row.superuser, scopes: row.scopes };
    // last_used_at is kept at cache-miss granularity (at most once per TTL per process), off the request's path.
    touchApiKey(this.db, row.workspace_id, row.id).catch((err) => this.log.warn({ err: (err as Error).message }, 'could not record api key use'));
    this.cache.set(key, auth);
    return auth;
  }

  /** Listens for revocations (through the database's reconnecting LISTEN); any notice or lost connection empties the cache. */
  async listen(): Promise<void> {
    if (this.closed || this.listener) return;
    this.listener = await this.db.listen(API_KEYS_CHANNEL, () => this.cache.clear());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    await this.listener?.close();
  }
}

/** `Authorization: Bearer <token>`: the token. */
export const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** 403 unless the key's scopes include `scope` (`api-key create --scopes`). */
export function requireScope(key: KeyAuth, scope: ApiKeyScope): KeyAuth {
  if (!key.scopes.includes(scope)) {
    throw forbidden(`Forbidden: this API key's scopes (${key.scopes.join(', ')}) do not include ${scope}`);
  }
  return key;
}

/** REST auth: `Authorization: Bearer <api key>`; anything else is 401 in the spec's error shape. */
export function apiKeyAuth(resolver: ApiKeyResolver): Middleware<AppState> {
  return async (ctx, next) => {
    if (!ctx.get('authorization')) throw unauthorized('Unauthorized: missing Authorization header');
    ctx.state.auth = requireScope(await resolveBearer(resolver, ctx.get('authorization')), 'rest');
    return next();
  };
}

/** Auth where a key is optional (chat sessions): none passes unauthenticated; one that is sent must be valid (else 401). */
export function optionalApiKeyAuth(resolver: ApiKeyResolver): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.get('authorization')) ctx.state.auth = requireScope(await resolveBearer(resolver, ctx.get('authorization')), 'rest');
    return next();
  };
}

async function resolveBearer(resolver: ApiKeyResolver, header: string): Promise<KeyAuth> {
  const match = BEARER.exec(header);
  if (!match) throw unauthorized('Unauthorized: expected "Authorization: Bearer <api key>"');
  const auth = await resolver.resolve(match[1]!);
  if (!auth) throw unauthorized('Unauthorized: invalid or revoked API key');
  return auth;
}
