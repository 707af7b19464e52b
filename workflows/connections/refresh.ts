// The refresh schedule's workflow: renews OAuth tokens ahead of expiry, also for connections no run has used lately.
import { proxyActivities } from '@temporalio/workflow';
import type { ConnectionRefreshActivities, RefreshOutcome } from '../../activities/connections/refresh';
import { checkInBatches } from '../batched';

const refresh = proxyActivities<ConnectionRefreshActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 4 },
});

/** How far ahead tokens are renewed, and how many connections one run takes (the next run takes the rest). */
export interface RefreshExpiringInput {
  horizonSeconds?: number;
  limit?: number;
  /** Only this workspace's connections (an operator renewing one tenant's now); absent: every workspace's. */
  workspaceId?: string;
}

/** Renews every connection expiring within the horizon, a few at a time; one vendor that is down fails only its own. */
export async function refreshExpiringConnections(input: RefreshExpiringInput = {}): Promise<Record<RefreshOutcome | 'failed', number>> {
  const horizonSeconds = input.horizonSeconds ?? 30 * 60;
  const ids = await refresh.connectionsDueForRefresh({ horizonSeconds, limit: input.limit ?? 500, workspaceId: input.workspaceId });
  const counts: Record<RefreshOutcome | 'failed', number> = { refreshed: 0, fresh: 0, broken: 0, skipped: 0, failed: 0 };
  for (const outcome of await checkInBatches(ids, (id) => refresh.refreshConnection({ id, horizonSeconds }))) counts[outcome] += 1;
  return counts;
}
