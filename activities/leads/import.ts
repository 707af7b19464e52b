import { Context } from '@temporalio/activity';
import type { Db } from '../../src/db/pool';
import { applyNextChunk, type ChunkResult } from '../../src/leads/import/apply';
import { failImport } from '../../src/leads/import/db/imports';

// Well inside the workflow's 10 s heartbeat timeout.
const HEARTBEAT_MS = 2000;

/** Lead import activities: each chunk in one transaction with its progress (src/leads/import/apply.ts). */
export function createLeadImportActivities(deps: { db: Db }) {
  return {
    /** Applies the import's next chunkRows records; idempotent by the progress it records with them. */
    async importLeadChunk(importId: string, chunkRows: number): Promise<ChunkResult> {
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_MS);
      try {
        return await applyNextChunk(deps.db, importId, chunkRows);
      } finally {
        clearInterval(beat);
      }
    },
    /** Ends the import as failed with the reason (a record that cannot be read, data Postgres refuses). */
    failLeadImport(importId: string, message: string): Promise<void> {
      return failImport(deps.db, importId, message);
    },
  };
}

export type LeadImportActivities = ReturnType<typeof createLeadImportActivities>;
