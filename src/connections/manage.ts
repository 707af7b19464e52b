import type { Config } from '../core/config';
import { defaultKeyring, type Keyring } from '../crypto/keyring';
import type { Db } from '../db/pool';
import { DomainError } from '../core/errors';
import { VendorError } from '../integrations/define';
import { findIntegration } from '../integrations/registry';
import { claimConnectionTest, findConnectionById } from './db/health';
import { oauthClient } from './oauth/clients';
import { revokeGrant } from './oauth/token';
import { ensureFreshConnection, type FreshnessOptions } from './refresh';
import { openSecrets, toConnection } from './sealed';
import { deleteConnection, presentConnection, type ConnectionSummary } from './store';

type ManageConfig = Pick<Config, 'SSRF_ALLOWLIST' | 'oauthEnv'>;
type TestConfig = ManageConfig & Pick<Config, 'CONNECTION_TEST_COOLDOWN_SECONDS'>;

const connectionNotFound = () => new DomainError('connection_not_found', 'Connection not found');

/** One of the workspace's connections without secrets; another workspace's is not found. */
export async function showConnection(db: Db, workspaceId: string, id: string, keyring: Keyring = defaultKeyring()): Promise<ConnectionSummary> {
  const row = await findConnectionById(db, workspaceId, id);
  if (!row) throw connectionNotFound();
  return presentConnection(row, keyring);
}

/** What a test found: ok (the vendor renewed the token), or why not; tested false when no check applies. */
export interface ConnectionTest {
  tested: boolean;
  ok: boolean;
  message: string;
  connection: ConnectionSummary;
}

/**
 * "Can it still call the vendor?": an OAuth connection with a refresh token renews its token now (the cheapest call
 * every OAuth vendor has); a refusal marks it broken (onBroken publishes connection.broken). Other kinds have no
 * vendor-neutral check and are answered untested. The vendor is asked at most once per CONNECTION_TEST_COOLDOWN_SECONDS
 * per connection, across processes (the OAuth client is shared by every tenant): sooner is connection_test_too_soon.
 */
export async function testConnection(
  db: Db,
  config: TestConfig,
  workspaceId: string,
  id: string,
  opts: { onBroken?: FreshnessOptions['onBroken']; keyring?: Keyring } = {},
): Promise<ConnectionTest> {
  const keyring = opts.keyring ?? defaultKeyring();
  const row = await findConnectionById(db, workspaceId, id);
  if (!row) throw connectionNotFound();
  const integration = findIntegration(row.integration);
  const answer = async (tested: boolean, ok: boolean, message: string): Promise<ConnectionTest> => {
    const now = await findConnectionById(db, workspaceId, id);
    return { tested, ok, message, connection: presentConnection(now ?? row, keyring) };
  };
  if (row.broken_at) return answer(true, false, `broken: ${row.broken_reason ?? 'the vendor refused to renew its token'}; connect it again`);
  if (row.kind !== 'oauth2' || !integration) return answer(false, true, `no check for ${row.kind} connections: the next run will tell`);
  const conn = toConnection(row, keyring);
  if (!conn.secrets.refresh_token) return answer(false, true, 'no refresh token to renew: the next run will tell');
  const cooldown = config.CONNECTION_TEST_COOLDOWN_SECONDS;
  const wait = cooldown === 0 ? undefined : await claimConnectionTest(db, workspaceId, id, cooldown);
  if (wait !== undefined) {
    throw new DomainError('connection_test_too_soon', `Too many tests of this connection: at most 1 per ${cooldown} s; retry in ${wait} s`, {
      retryAfterSeconds: wait,
    });
  }
  try {
    await ensureFreshConnection(db, conn, integration.auth, { config, force: true, onBroken: opts.onBroken, keyring });
    const after = await findConnectionById(db, workspaceId, id);
    // Unchanged: the token endpoint could not be reached and the current token is still valid.
    if (after?.refreshed_at?.getTime() === row.refreshed_at?.getTime())
      return answer(true, false, `${integration.name}'s token endpoint could not be reached; try again later`);
    return answer(true, true, `${integration.name} renewed the access token`);
  } catch (err) {
    if (err instanceof VendorError) return answer(true, false, err.message);
    throw err;
  }
}

/**
 * Deletes a connection, first revoking its grant at the vendor where the vendor has a revocation endpoint and the
 * OAuth client is configured (a failed revocation does not keep the connection).
 */
export async function deleteAndRevoke(
  db: Db,
  config: ManageConfig,
  workspaceId: string,
  id: string,
  keyring: Keyring = defaultKeyring(),
): Promise<{ id: string; revoked: 'revoked' | 'unsupported' | 'failed' }> {
  const row = await findConnectionById(db, workspaceId, id);
  if (!row) throw connectionNotFound();
  let revoked: 'revoked' | 'unsupported' | 'failed' = 'unsupported';
  if (row.kind === 'oauth2') {
    try {
      const client = oauthClient(row.integration, config.oauthEnv);
      revoked = await revokeGrant({ ...client, tokenUrl: row.settings.token_url ?? client.tokenUrl }, openSecrets(row, keyring), config.SSRF_ALLOWLIST);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err; // no client configured: nothing to revoke with
    }
  }
  if (!(await deleteConnection(db, workspaceId, id))) throw connectionNotFound();
  return { id, revoked };
}
