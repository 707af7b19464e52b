import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { deleteUnstartedCall, unstartedCallCandidates } from '../../src/calls/db/calls';
import type { Db } from '../../src/db/pool';
import { callWorkflowId } from '../../src/temporal/ids';

/** What checking one candidate came to: deleted (its workflow never started), left (its workflow exists), or neither. */
export type ReclaimOutcome = 'reclaimed' | 'running' | 'gone';

/** Used when the namespace names no retention: the dev server's. */
const DEFAULT_RETENTION_MS = 24 * 3600_000;

/** The activities of the reclaim schedule: which api calls may never have started, and forgetting one that did not. */
export function createCallReclaimActivities(deps: { db: Db }) {
  const { db } = deps;
  return {
    /**
     * Calls holding a slot, never dialled, created more than olderThanSeconds ago, oldest first. Only those younger
     * than the namespace's retention: Temporal still holds the run of any of them that ever started, however it ended.
     */
    async unstartedCallsToCheck(q: { olderThanSeconds: number; limit: number; workspaceId?: string }): Promise<string[]> {
      const { client } = Context.current();
      const ns = await client.workflowService.describeNamespace({ namespace: client.options.namespace });
      const retentionMs = optionalTsToMs(ns.config?.workflowExecutionRetentionTtl) || DEFAULT_RETENTION_MS;
      return unstartedCallCandidates(db, {
        olderThanSeconds: q.olderThanSeconds,
        newerThanSeconds: Math.floor(retentionMs / 1000),
        limit: q.limit,
        workspaceId: q.workspaceId ?? null,
      });
    },

    /**
     * Deletes the call, freeing its slot, when Temporal has no workflow `call:<id>` (the api died between writing the
     * call and starting it); a call whose run exists, running or ended, is left alone. Any other error: retried.
     */
    async reclaimUnstartedCall(callId: string): Promise<ReclaimOutcome> {
      try {
        await Context.current().client.workflow.getHandle(callWorkflowId(callId)).describe();
        return 'running';
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
      return (await deleteUnstartedCall(db, callId)) ? 'reclaimed' : 'gone';
    },
  };
}

export type CallReclaimActivities = ReturnType<typeof createCallReclaimActivities>;
