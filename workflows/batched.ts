// Periodic sweeps over many ids (the refresh and reclaim schedules' runs): a few activities at once, not all.
import { ActivityFailure } from '@temporalio/workflow';

/**
 * Runs check for every id, ten at a time in order, and resolves each one's outcome; a check whose activity failed
 * for good is 'failed' (the schedule's next run takes it again), any other error fails the run.
 */
export async function checkInBatches<O>(ids: string[], check: (id: string) => Promise<O>): Promise<(O | 'failed')[]> {
  const outcomes: (O | 'failed')[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const batch = ids.slice(i, i + 10).map((id) =>
      check(id).catch((err: unknown) => {
        if (err instanceof ActivityFailure) return 'failed' as const;
        throw err;
      }),
    );
    outcomes.push(...(await Promise.all(batch)));
  }
  return outcomes;
}
