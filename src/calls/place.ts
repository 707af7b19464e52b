import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { DateTime } from 'luxon';
import { ApiError, badRequest, conflict, notFound } from '../errors';
import {
  callContext,
  createCallHoldingSlot,
  deleteUnstartedCall,
  findCallAgent,
  isWorkspaceNumber,
  onDoNotCallList,
  phoneGroupNumbers,
  touchNumber,
} from '../db/repos/calls';
import type { Db } from '../db/pool';
import { getWorkspace } from '../db/repos/workspaces';
import { isUuid } from '../ids';
import { msUntilWindow } from '../journeys/window';
import { normalizePhone } from '../phone';
import { callTimeZone, chooseFrom, effectiveWindow } from './rules';
import { startOutboundCall } from './start';

export const INVALID_AGENT = 'Invalid agent';
/** Seconds a client over the concurrent-call cap is told to wait (a call lasts about that long). */
export const CAP_RETRY_AFTER_SECONDS = 30;

/** What POST /v1/agent asks for. */
export interface CallRequest {
  agent: string;
  phone: string;
  from?: string;
  requestData?: unknown;
}

/**
 * Places a call for the api: every refusal (unknown agent, bad phone or caller id, do-not-call, outside the window,
 * over the concurrent-call cap) is answered before anything is written; then the call row and its slot are written
 * together and the outboundCall workflow is started.
 */
export async function placeApiCall(
  deps: { db: Db; client: Client; taskQueuePrefix: string },
  workspaceId: string,
  r: CallRequest,
): Promise<{ call_id: string; to: string; from: string; agent: string }> {
  const { db } = deps;
  const agent = isUuid(r.agent) ? await findCallAgent(db, workspaceId, r.agent.toLowerCase()) : undefined;
  if (!agent) throw notFound(INVALID_AGENT);
  const ws = await getWorkspace(db, workspaceId);
  if (!ws) throw notFound(INVALID_AGENT);
  const to = normalizePhone(r.phone, ws.default_region);
  if (!to) throw badRequest('phone: not a valid phone number');
  let from: string | undefined;
  if (r.from !== undefined) {
    from = normalizePhone(r.from, ws.default_region);
    if (!from || !(await isWorkspaceNumber(db, workspaceId, from))) throw badRequest("from: not one of this workspace's phone numbers");
  } else {
    from = agent.phone_group_id ? chooseFrom(await phoneGroupNumbers(db, workspaceId, agent.phone_group_id), to) : undefined;
    if (!from) throw badRequest('from: the agent has no phone group numbers to call from; give one of the workspace\'s numbers');
  }
  if (await onDoNotCallList(db, workspaceId, to)) throw new ApiError(409, 'do_not_call', 'Phone number is on the do-not-call list: no call placed');
  const ctx = (await callContext(db, workspaceId, to))!;
  const zone = callTimeZone(ctx.leadTimezone, ctx.workspaceTimezone);
  const window = effectiveWindow(undefined, agent.call_window);
  const wait = msUntilWindow(Date.now(), window, zone);
  if (wait > 0) {
    const opens = DateTime.fromMillis(Date.now() + wait, { zone }).toISO({ suppressMilliseconds: true });
    throw new ApiError(409, 'outside_call_window', `Outside the call window (${window.start}–${window.end} ${zone}): no call placed; it opens at ${opens}`);
  }

  const callId = randomUUID();
  const call = { id: callId, workspaceId, agentId: agent.id, leadId: ctx.leadId, to, from, requestData: r.requestData };
  if (!(await createCallHoldingSlot(db, call))) {
    throw new ApiError(
      429,
      'concurrent_call_cap',
      `Concurrent call cap reached: this workspace may have ${ctx.maxConcurrentCalls} call${ctx.maxConcurrentCalls === 1 ? '' : 's'} in progress at once (its concurrent-call cap); retry when one ends`,
      { 'Retry-After': String(CAP_RETRY_AFTER_SECONDS) },
    );
  }
  try {
    await startOutboundCall(deps.client, deps.taskQueuePrefix, {
      callId,
      workspaceId,
      agentId: agent.id,
      to,
      from,
      ...(ctx.leadId ? { leadId: ctx.leadId } : {}),
      ...(r.requestData !== undefined ? { requestData: r.requestData } : {}),
      waitForSlot: false,
      source: 'api',
    });
  } catch (err) {
    await deleteUnstartedCall(db, callId).catch(() => undefined);
    throw err;
  }
  await touchNumber(db, workspaceId, from);
  return { call_id: callId, to, from, agent: agent.id };
}

/** Throws 409 when a call's status says it has ended. */
export function assertCancelable(status: string): void {
  if (['completed', 'busy', 'no_answer', 'failed', 'canceled'].includes(status)) throw conflict(`Call has already ended (status ${status})`);
}
