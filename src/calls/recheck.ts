import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { openPlacedCallIds } from './db/calls';
import type { Db } from '../db/pool';
import type { Logger } from '../telemetry/log';
import { callWorkflowId } from '../temporal/ids';
import { CALL_RECHECK_SIGNAL } from '../../workflows/calls/outbound-call-types';

/** Signals sent at once while rechecking. */
const CONCURRENCY = 8;

/**
 * Asks every call in flight to read its state from the provider (signal `recheckProvider`): the provider does not
 * retry a status callback, so those sent while this api was down are lost. Run once the api listens again. Returns
 * how many calls were asked.
 */
export async function recheckOpenCalls(db: Db, client: Client, logger: Logger): Promise<number> {
  const ids = await openPlacedCallIds(db);
  let asked = 0;
  const next = async (): Promise<void> => {
    for (let id = ids.pop(); id !== undefined; id = ids.pop()) {
      try {
        await client.workflow.getHandle(callWorkflowId(id)).signal(CALL_RECHECK_SIGNAL);
        asked++;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) logger.warn({ callId: id, err: (err as Error).message }, 'call recheck not sent');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, next));
  return asked;
}
