import { Client } from 'pg';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { findLiveKey, touchApiKey } from '../db/repos/api-keys';
import type { Db } from '../db/pool';
import { unauthorized } from '../errors';
import type { AppState, KeyAuth } from './state';

/**
 * Resolves API keys to their workspace with a short-lived cache, so the hot path costs no extra query.
 * Revocations reach every api process at once through NOTIFY api_keys_changed; the TTL bounds staleness
 * should the listening connection be down.
 */
export class ApiKeyResolver {
  private readonly cache = new Map<string, { auth: KeyAuth; expires: number }>();
  private listener?: Client;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly ttlMs = 15_000,
  ) {}

  async resolve(key: string): Promise<KeyAuth | undefined> {
    const hit = this.cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.auth;
    const row = await findLiveKey(this.db, key);
    if (!row) {
      this.cache.delete(key);
      return undefined;
    }
    const auth = { workspaceId: row.workspace_id, apiKeyId: row.id, superuser: row.superuser };
    // last_used_at is kept at cache-miss granularity (at most once per TTL per process), off the request's path.
    touchApiKey(this.db, row.id).catch((err) => this.log.warn({ err: (err as Error).message }, 'could not record api key use'));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { auth, expires: Date.now() + this.ttlMs });
    return auth;
  }

  /** Listens for revocations; reconnects after a database restart. */
  async listen(connectionString: string): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString });
    client.on('notification', () => this.cache.clear());
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'api key listener lost its connection');
      this.cache.clear();
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listen(connectionString).catch(() => undefined), 1000).unref();
    });
    try {
      await client.connect();
      await client.query('LISTEN api_keys_changed');
      this.listener = client;
    } catch (err) {
      client.emit('error', err as Error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    await this.listener?.end().catch(() => undefined);
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** REST auth: `Authorization: Bearer <api key>`; anything else is 401 in the spec's error shape. */
export function apiKeyAuth(resolver: ApiKeyResolver): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (!header) throw unauthorized('Unauthorized: missing Authorization header');
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('Unauthorized: expected "Authorization: Bearer <api key>"');
    const auth = await resolver.resolve(match[1]!);
    if (!auth) throw unauthorized('Unauthorized: invalid or revoked API key');
    ctx.state.auth = auth;
    return next();
  };
}
