import { Context } from '@temporalio/activity';
import type { Config } from '../../src/core/config';
import { connectionRowById, connectionsExpiringBefore } from '../../src/connections/db/health';
import { publishConnectionBroken } from '../../src/connections/events';
import { ensureFreshConnection, type BrokenConnection } from '../../src/connections/refresh';
import { toConnection } from '../../src/connections/sealed';
import { defaultKeyring } from '../../src/crypto/keyring';
import type { Db } from '../../src/db/pool';
import { VendorError } from '../../src/integrations/define';
import { findIntegration } from '../../src/integrations/registry';

/** What one scheduled refresh of one connection came to. */
export type RefreshOutcome = 'refreshed' | 'fresh' | 'broken' | 'skipped';

/** Starts connection.broken's delivery from an activity, with the worker's own client (outside one, e.g. the bench: nothing). */
export const brokenPublisher = (config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> | undefined) => async (broken: BrokenConnection) => {
  let client;
  try {
    client = Context.current().client;
  } catch {
    return;
  }
  await publishConnectionBroken(client, config?.TEMPORAL_TASK_QUEUE_PREFIX ?? '', broken);
};

/** The activities of the refresh schedule: which connections expire soon, and renewing one. */
export function createConnectionRefreshActivities(deps: { db: Db; config?: Config }) {
  const { db, config } = deps;
  return {
    /** OAuth connections (not broken) whose access token expires within horizonSeconds, soonest first. */
    async connectionsDueForRefresh(q: { horizonSeconds: number; limit: number; workspaceId?: string }): Promise<string[]> {
      return connectionsExpiringBefore(db, new Date(Date.now() + q.horizonSeconds * 1000), q.limit, q.workspaceId ?? null);
    },

    /** Renews one connection's token if it expires within horizonSeconds; a refusal marks it broken (and publishes it). */
    async refreshConnection(q: { id: string; horizonSeconds: number }): Promise<RefreshOutcome> {
      const row = await connectionRowById(db, q.id);
      const integration = row && findIntegration(row.integration);
      if (!row || !integration || row.kind !== 'oauth2' || row.broken_at) return 'skipped';
      const conn = toConnection(row, defaultKeyring());
      try {
        const fresh = await ensureFreshConnection(db, conn, integration.auth, {
          config,
          refreshBeforeMs: q.horizonSeconds * 1000,
          onBroken: brokenPublisher(config),
        });
        return fresh === conn ? 'fresh' : 'refreshed';
      } catch (err) {
        if (err instanceof VendorError && err.type === 'reconnect_required') return 'broken';
        throw err; // unreachable vendor: retried
      }
    },
  };
}

export type ConnectionRefreshActivities = ReturnType<typeof createConnectionRefreshActivities>;
