// The reclaim schedule's workflow: frees the slots of api calls whose workflow never started (the api died between
// writing the call and starting its run), long before the stale-slot reclaim would.
import { proxyActivities } from '@temporalio/workflow';
import type { CallReclaimActivities } from '../../activities/calls/reclaim';
import { checkInBatches } from '../batched';

const reclaim = proxyActivities<CallReclaimActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 4 },
});

/** How old a call must be to be checked (far longer than any start), how many one run checks, and whose. */
export interface ReclaimUnstartedInput {
  olderThanSeconds?: number;
  limit?: number;
  /** Only this workspace's calls (an operator's or a test's run); absent: every workspace's. */
  workspaceId?: string;
}

/** What a run came to: calls checked, deleted (never started), left (their run exists), and checks that failed. */
export interface ReclaimCounts {
  checked: number;
  reclaimed: number;
  running: number;
  failed: number;
}

/** Checks the oldest candidates a few at a time; the next run takes the rest and any whose check failed. */
export async function reclaimUnstartedCalls(input: ReclaimUnstartedInput = {}): Promise<ReclaimCounts> {
  const ids = await reclaim.unstartedCallsToCheck({
    olderThanSeconds: input.olderThanSeconds ?? 10 * 60,
    limit: input.limit ?? 500,
    workspaceId: input.workspaceId,
  });
  const counts: ReclaimCounts = { checked: ids.length, reclaimed: 0, running: 0, failed: 0 };
  for (const outcome of await checkInBatches(ids, (id) => reclaim.reclaimUnstartedCall(id))) if (outcome !== 'gone') counts[outcome] += 1;
  return counts;
}
