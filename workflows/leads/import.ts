import { ActivityFailure, ApplicationFailure, continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { LeadImportActivities } from '../../activities/leads/import';
import type { ChunkResult } from '../../src/leads/import/types';

/** A lead import run's input: ids only (its records are in Postgres), and the chunk size. */
interface LeadImportInput {
  importId: string;
  chunkRows: number;
}

// A chunk's activity retries until it commits (a restart, Postgres away); only a final failure (a record that cannot be
// read, data Postgres refuses) ends the import, as failed with that reason. It heartbeats while it runs, so a worker's
// death is noticed within the heartbeat timeout, not after the whole start-to-close timeout.
const imports = proxyActivities<LeadImportActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Chunks one run applies before it continues as new: about 4 events each, so a run's history stays bounded. */
const CHUNKS_PER_RUN = 500;

/** Applies an import (id `lead-import:<importId>`) chunk by chunk, each resuming from the progress Postgres holds. */
export async function leadImport(input: LeadImportInput): Promise<ChunkResult> {
  for (let i = 0; i < CHUNKS_PER_RUN; i++) {
    let result: ChunkResult;
    try {
      result = await imports.importLeadChunk(input.importId, input.chunkRows);
    } catch (err) {
      const cause = err instanceof ActivityFailure ? err.cause : undefined;
      if (!(cause instanceof ApplicationFailure) || !cause.nonRetryable) throw err;
      await imports.failLeadImport(input.importId, cause.message);
      return { done: true, status: 'failed', rowsDone: -1, rowsTotal: -1 };
    }
    if (result.done) return result;
  }
  return continueAsNew<typeof leadImport>(input);
}
