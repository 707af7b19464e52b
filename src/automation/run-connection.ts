import type { Config } from '../core/config';
import { reconnect } from '../connections/refresh';
import { ensureFreshConnection, loadConnection, type FreshnessOptions } from '../connections/store';
import type { Db } from '../db/pool';
import { VendorError, type Connection, type IntegrationDefinition } from '../integrations/define';

const SECRETS: Record<string, string> = { oauth2: '--secret access_token=…', api_key: '--secret api_key=…', basic: '--secret username=… --secret password=…' };

/** The admin CLI command that connects an integration for the caller (the workspace's, or the user's own). */
function connectCommand(integration: IntegrationDefinition, who: { workspaceId: string; userId: string | null; superuser: boolean }): string {
  const kind = integration.auth.kinds[0] ?? 'api_key';
  const owner = !who.superuser && who.userId ? ` --user ${who.userId}` : '';
  const kindFlag = kind === 'api_key' ? '' : ` --kind ${kind}`;
  return `npx switchboard connection create --workspace ${who.workspaceId}${owner} --integration ${integration.key}${kindFlag} ${SECRETS[kind] ?? ''}`.trim();
}

/**
 * The connection a run uses: the user's own for a JWT caller, the workspace's (user_id null) in superuser mode; an
 * integration that needs none gets an empty one. OAuth2 tokens are refreshed first when near expiry.
 */
export async function connectionFor(
  db: Db,
  who: { workspaceId: string; userId: string | null; superuser: boolean },
  integration: IntegrationDefinition,
  config: Config | undefined,
  onBroken?: FreshnessOptions['onBroken'],
): Promise<Connection> {
  const stored = await loadConnection(db, { workspaceId: who.workspaceId, userId: who.superuser ? null : who.userId, integration: integration.key });
  if (!stored) {
    if (integration.auth.kinds.includes('none')) return { id: null, integration: integration.key, kind: 'none', secrets: {}, settings: {} };
    const whose = who.superuser ? 'this workspace' : 'this user';
    throw new VendorError('not_connected', `${integration.name} is not connected for ${whose}: connect it first (${connectCommand(integration, who)})`, false);
  }
  // Broken: the vendor already refused its refresh; only connecting again helps, so the vendor is not asked again. The
  // event is published again (the same id: delivered once) in case the try that broke it could not publish it.
  if (stored.brokenAt) {
    await onBroken?.({ connectionId: stored.id, workspaceId: stored.workspaceId, brokenAt: stored.brokenAt });
    throw reconnect(integration.key, stored.brokenReason ?? 'the vendor refused to renew its token');
  }
  return stored.kind === 'oauth2' ? ensureFreshConnection(db, stored, integration.auth, { config, onBroken }) : stored;
}
