import type { Config } from '../core/config';
import { defaultKeyring, type Keyring } from '../crypto/keyring';
import type { Db } from '../db/pool';
import { lockConnectionRow, updateConnectionSecrets } from './db/connections';
import { markConnectionBroken } from './db/health';
import { clientCredentials, oauthClient } from './oauth/clients';
import { VendorError, type AuthSpec, type Connection } from '../integrations/define';
import { outboundRequest } from '../net/outbound';
import { connectionAad, toConnection, type StoredConnection } from './sealed';

/** A connection the vendor refused to renew, as connection.broken announces it. */
export interface BrokenConnection {
  connectionId: string;
  workspaceId: string;
  brokenAt: Date;
}

export interface FreshnessOptions {
  keyring?: Keyring;
  /** For the token endpoint's guard (SSRF_ALLOWLIST); ssrfAllowlist wins when both are given. */
  config?: Pick<Config, 'SSRF_ALLOWLIST' | 'oauthEnv'>;
  ssrfAllowlist?: string[];
  /** Refresh when the access token expires within this long (default 60 s). */
  refreshBeforeMs?: number;
  timeoutMs?: number;
  now?: () => number;
  /** Renew now whatever the expiry (a connection test). */
  force?: boolean;
  /** Called once when a refused refresh marks the connection broken (e.g. to publish connection.broken). */
  onBroken?: (broken: BrokenConnection) => Promise<void>;
}

// Callers in one process share one refresh per connection; the row lock serialises processes.
const inFlight = new Map<string, Promise<StoredConnection>>();

/**
 * An OAuth2 connection whose access token is good for at least refreshBeforeMs: refreshed through the token endpoint
 * (the connection's `token_url` setting, else the integration's auth.oauth2.tokenUrl) with the standard refresh_token
 * grant, one refresh at a time per connection across processes (the row is locked for update; whoever waited finds
 * it fresh). A refused refresh marks the connection broken (onBroken is told, once) and fails with type
 * reconnect_required; an unreachable token endpoint uses the current token while it is still valid, else fails
 * retryably. Other kinds come back unchanged.
 */
export async function ensureFreshConnection(db: Db, conn: Connection, auth: AuthSpec, opts: FreshnessOptions = {}): Promise<Connection> {
  if (conn.kind !== 'oauth2' || !conn.id) return conn;
  const now = opts.now ?? Date.now;
  const margin = opts.refreshBeforeMs ?? 60_000;
  const expiresAt = (conn as Partial<StoredConnection>).expiresAt;
  if (!opts.force && expiresAt !== undefined && !due(expiresAt, now(), margin)) return conn;
  const id = conn.id;
  let refresh = inFlight.get(id);
  if (!refresh) {
    refresh = refreshLocked(db, id, auth, { ...opts, now, margin })
      .catch((err: unknown) => (err instanceof RefreshRefused ? broken(db, id, err, opts.onBroken) : Promise.reject(err)))
      .finally(() => inFlight.delete(id));
    inFlight.set(id, refresh);
  }
  return refresh;
}

const due = (expiresAt: Date | null, now: number, margin: number) => expiresAt !== null && expiresAt.getTime() - now <= margin;

/** The failure of a connection that must be connected again, saying how to. */
export function reconnect(integration: string, why: string): VendorError {
  return new VendorError(
    'reconnect_required',
    `The ${integration} connection must be reconnected: ${why}. Connect it again (GET /v1/connections/oauth/${integration}/start, or switchboard connection create --integration ${integration} …).`,
    false,
  );
}

/** The vendor refused the refresh: the connection is broken until it is connected again. */
class RefreshRefused extends VendorError {
  constructor(
    integration: string,
    readonly reason: string,
  ) {
    super('reconnect_required', reconnect(integration, `renewing its access token was refused (${reason})`).message, false);
  }
}

/** Records the refusal on the row (the first time, telling onBroken), then fails as before. */
async function broken(db: Db, id: string, err: RefreshRefused, onBroken: FreshnessOptions['onBroken']): Promise<never> {
  const row = await markConnectionBroken(db, id, `the vendor refused the token refresh (${err.reason})`);
  if (row && onBroken) await onBroken({ connectionId: row.id, workspaceId: row.workspace_id, brokenAt: row.broken_at! });
  throw err;
}

async function refreshLocked(db: Db, id: string, auth: AuthSpec, opts: FreshnessOptions & { now: () => number; margin: number }): Promise<StoredConnection> {
  const keyring = opts.keyring ?? defaultKeyring();
  return db.tx(
    async (q) => {
      const row = await lockConnectionRow(q, id);
      if (!row) throw new VendorError('not_connected', 'the connection was deleted: connect it again', false);
      const current = toConnection(row, keyring);
      const started = opts.now();
      if (!opts.force && !due(current.expiresAt, started, opts.margin)) return current; // refreshed by whoever held the lock before us
      const stillValid = current.expiresAt !== null && current.expiresAt.getTime() > started;
      const name = current.integration;
      const refreshToken = current.secrets.refresh_token;
      const tokenUrl = current.settings.token_url ?? auth.oauth2?.tokenUrl;
      if (!refreshToken) {
        if (stillValid) return current;
        throw reconnect(name, 'its access token expired and it holds no refresh token');
      }
      if (!tokenUrl) throw reconnect(name, 'no token endpoint is known to renew its access token');

      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
      const clientId = current.secrets.client_id ?? current.settings.client_id;
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      const configured = current.secrets.client_secret ? undefined : configuredClient(name, clientId, opts.config?.oauthEnv);
      if (configured) {
        // Connected through the flow: the client authenticates as the vendor wants, with the configured secret.
        const creds = clientCredentials(configured);
        Object.assign(headers, creds.headers);
        for (const [k, v] of Object.entries(creds.form)) form.set(k, v);
      } else {
        if (clientId) form.set('client_id', clientId);
        if (current.secrets.client_secret) form.set('client_secret', current.secrets.client_secret);
      }
      let res;
      try {
        res = await outboundRequest(
          tokenUrl,
          { method: 'POST', headers, body: form.toString(), timeoutMs: opts.timeoutMs ?? 10_000, maxResponseBytes: 64 * 1024 },
          opts.ssrfAllowlist ?? opts.config?.SSRF_ALLOWLIST,
        );
      } catch (err) {
        if ((err as { code?: string }).code === 'ssrf_blocked')
          throw reconnect(name, `its token endpoint is not an allowed address (${(err as Error).message})`);
        if (stillValid) return current;
        throw new VendorError('vendor_unavailable', `${name}: the token endpoint could not be reached to renew the access token`, true);
      }
      if (res.status >= 500 || res.status === 429) {
        if (stillValid) return current;
        throw new VendorError('vendor_unavailable', `${name}: the token endpoint answered ${res.status} while renewing the access token`, true);
      }
      let body: { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; error?: unknown } = {};
      try {
        body = JSON.parse(res.body) as typeof body;
      } catch {
        // not JSON: treated as a refusal below
      }
      if (res.status !== 200 || typeof body.access_token !== 'string' || !body.access_token) {
        const code = typeof body.error === 'string' ? body.error.slice(0, 60) : `HTTP ${res.status}`;
        throw new RefreshRefused(name, code);
      }
      const secrets: Record<string, string> = { ...current.secrets, access_token: body.access_token };
      // A provider that rotates refresh tokens sends a new one; the old one is then spent.
      if (typeof body.refresh_token === 'string' && body.refresh_token) secrets.refresh_token = body.refresh_token;
      const seconds = Number(body.expires_in);
      const expiresAt = Number.isFinite(seconds) && seconds > 0 ? new Date(started + seconds * 1000) : null;
      await updateConnectionSecrets(q, id, keyring.seal(JSON.stringify(secrets), connectionAad(id)), expiresAt);
      return { ...current, secrets, expiresAt };
      // Once: the token endpoint may have rotated the refresh token already; a rerun would spend the old one.
    },
    { once: true },
  );
}

/** The configured OAuth client of an integration when the connection was made with it (same client id). */
function configuredClient(integration: string, clientId: string | undefined, oauthEnv: Record<string, string> | undefined) {
  if (!clientId || !oauthEnv) return undefined;
  try {
    const client = oauthClient(integration, oauthEnv);
    return client.clientId === clientId ? client : undefined;
  } catch {
    return undefined;
  }
}
