// The reclaim schedule's workflow: frees the slots of api calls whose workflow never started (the api died between
// writing the call and starting its run), long before the stale-slot reclaim would.
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { CallReclaimActivities } from '../../activities/calls/reclaim';

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
  for (let i = 0; i < ids.length; i += 10) {
    const batch = ids.slice(i, i + 10).map((id) =>
      reclaim.reclaimUnstartedCall(id).catch((err: unknown) => {
        if (err instanceof ActivityFailure) return 'failed' as const;
        throw err;
      }),
    );
    for (const outcome of await Promise.all(batch)) if (outcome !== 'gone') counts[outcome] += 1;
  }
  return counts;
}
