import type { Config } from '../config';
import { ensureFreshConnection, loadConnection } from '../connections/store';
import type { Db } from '../db/pool';
import { VendorError, type Connection, type IntegrationDefinition } from '../integrations/define';

/**
 * The connection a run uses: the user's own for a JWT caller, the workspace's (user_id null) in superuser mode; an
 * integration that needs none gets an empty one. OAuth2 tokens are refreshed first when near expiry.
 */
export async function connectionFor(
  db: Db,
  who: { workspaceId: string; userId: string | null; superuser: boolean },
  integration: IntegrationDefinition,
  config: Config | undefined,
): Promise<Connection> {
  const stored = await loadConnection(db, { workspaceId: who.workspaceId, userId: who.superuser ? null : who.userId, integration: integration.key });
  if (!stored) {
    if (integration.auth.kinds.includes('none')) return { id: null, integration: integration.key, kind: 'none', secrets: {}, settings: {} };
    const whose = who.superuser ? 'this workspace' : 'this user';
    throw new VendorError('not_connected', `${integration.name} is not connected for ${whose}: connect it first`, false);
  }
  return stored.kind === 'oauth2' ? ensureFreshConnection(db, stored, integration.auth, { config }) : stored;
}
