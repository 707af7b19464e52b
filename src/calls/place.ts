import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { DomainError } from '../core/errors';
import { deleteUnstartedCall } from './db/calls';
import type { Db } from '../db/pool';
import { isUuid } from '../core/ids';
import { admitApiCall, refusalError } from './admission';
import { startOutboundCall } from './start';

/** What POST /v1/agent asks for. */
export interface CallRequest {
  agent: string;
  phone: string;
  from?: string;
  requestData?: unknown;
}

/**
 * Places a call for the api: call admission (./admission.ts) judges it and writes it holding a slot, or refuses it
 * (unknown agent, bad phone or caller id, do-not-call, outside the window, over the concurrent-call cap) writing
 * nothing; then the outboundCall workflow is started (a call whose start fails is deleted: it was never dialled).
 * Resolves the call and its run's workflow id.
 */
export async function placeApiCall(
  deps: { db: Db; client: Client; taskQueuePrefix: string },
  workspaceId: string,
  r: CallRequest,
): Promise<{ call_id: string; to: string; from: string; agent: string; workflowId: string }> {
  if (!isUuid(r.agent)) throw refusalError({ code: 'invalid_agent' });
  const agentId = r.agent.toLowerCase();
  const got = await admitApiCall(deps.db, workspaceId, { id: randomUUID(), agentId, phone: r.phone, from: r.from, requestData: r.requestData });
  if (!got.ok) throw refusalError(got);
  const { call } = got;
  let workflowId: string;
  try {
    workflowId = await startOutboundCall(deps.client, deps.taskQueuePrefix, {
      callId: call.id,
      workspaceId,
      agentId,
      to: call.to,
      from: call.from,
      ...(call.leadId ? { leadId: call.leadId } : {}),
      ...(call.requestData !== undefined ? { requestData: call.requestData } : {}),
      waitForSlot: false,
      source: 'api',
    });
  } catch (err) {
    forgetUnstartedCall(deps.db, call.id);
    throw err;
  }
  return { call_id: call.id, to: call.to, from: call.from, agent: agentId, workflowId };
}

/** How long a call whose workflow never started is retried for deletion while the database is unreachable. */
const FORGET_FOR_MS = 10 * 60_000;

/**
 * Deletes a call whose workflow could not be started, releasing its slot. The workflow's start fails most often when
 * the database fails too (a self-hosted Temporal keeps its history there), so a failed delete is retried in the
 * background, 0.5 s doubling to 30 s, for up to FORGET_FOR_MS: otherwise the never-dialled call would hold one of
 * its workspace's concurrent-call slots until the stale-slot reclaim (STALE_SLOT_HOURS). The caller gets its error at once.
 */
function forgetUnstartedCall(db: Db, callId: string): void {
  const until = Date.now() + FORGET_FOR_MS;
  const attempt = (delayMs: number): void => {
    deleteUnstartedCall(db, callId).catch(() => {
      if (Date.now() + delayMs > until) return;
      setTimeout(() => attempt(Math.min(delayMs * 2, 30_000)), delayMs).unref();
    });
  };
  attempt(500);
}

/** Throws call_ended when a call's status says it has ended. */
export function assertCancelable(status: string): void {
  if (['completed', 'busy', 'no_answer', 'failed', 'canceled'].includes(status))
    throw new DomainError('call_ended', `Call has already ended (status ${status})`);
}
