import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import { ApiError, badRequest, conflict, notFound } from '../errors';
import { deleteUnstartedCall } from '../db/repos/calls';
import { apiCallFacts, createApiCallHoldingSlot, type ApiCallFacts } from '../db/repos/calls-place';
import type { Db } from '../db/pool';
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

// A workspace's phone region (set when it is created, never changed by the app), so that the destination can be
// normalised before the one read of a call's facts; on a miss the facts are read twice (region first).
const regions = new LRUCache<string, string>({ max: 10_000, ttl: 10 * 60_000 });

/** The agent's facts for the normalised destination and caller id; undefined for an unknown agent. */
async function readFacts(
  db: Db,
  workspaceId: string,
  agentId: string,
  r: CallRequest,
): Promise<{ agent: ApiCallFacts; to: string | undefined; from: string | undefined } | undefined> {
  const normalised = (region: string) => ({
    to: normalizePhone(r.phone, region),
    from: r.from !== undefined ? normalizePhone(r.from, region) : undefined,
  });
  let region = regions.get(workspaceId);
  if (region === undefined) {
    const first = await apiCallFacts(db, workspaceId, agentId, null, null);
    if (!first) return undefined;
    region = first.default_region;
    regions.set(workspaceId, region);
  }
  const { to, from } = normalised(region);
  const agent = await apiCallFacts(db, workspaceId, agentId, to ?? null, from ?? null);
  if (!agent) return undefined;
  if (agent.default_region !== region) {
    // Changed under the cache (by hand): read again for the region the row holds now.
    regions.set(workspaceId, agent.default_region);
    return readFacts(db, workspaceId, agentId, r);
  }
  return { agent, to, from };
}

/**
 * Places a call for the api: every refusal (unknown agent, bad phone or caller id, do-not-call, outside the window,
 * over the concurrent-call cap) is answered before anything is written; then the call row, its slot and the caller id's
 * last use are written together (one statement) and the outboundCall workflow is started.
 */
export async function placeApiCall(
  deps: { db: Db; client: Client; taskQueuePrefix: string },
  workspaceId: string,
  r: CallRequest,
): Promise<{ call_id: string; to: string; from: string; agent: string }> {
  const { db } = deps;
  const facts = isUuid(r.agent) ? await readFacts(db, workspaceId, r.agent.toLowerCase(), r) : undefined;
  if (!facts) throw notFound(INVALID_AGENT);
  const { agent, to, from: given } = facts;
  if (!to) throw badRequest('phone: not a valid phone number');
  let from: string | undefined;
  if (r.from !== undefined) {
    if (!given || !agent.fromOk) throw badRequest("from: not one of this workspace's phone numbers");
    from = given;
  } else {
    from = agent.phone_group_id ? chooseFrom(agent.numbers, to) : undefined;
    // The request is fine; the agent is not ready to call (a state of the workspace, not of the input).
    if (!from) throw conflict('The agent has no phone group numbers to call from: add one (PATCH /v1/agents/{id}) or give `from`');
  }
  if (agent.doNotCall) throw new ApiError(409, 'do_not_call', 'Phone number is on the do-not-call list: no call placed');
  const ctx = agent;
  const zone = callTimeZone(ctx.leadTimezone, ctx.workspaceTimezone);
  const window = effectiveWindow(undefined, agent.call_window);
  const wait = msUntilWindow(Date.now(), window, zone);
  if (wait > 0) {
    const opens = DateTime.fromMillis(Date.now() + wait, { zone }).toISO({ suppressMilliseconds: true });
    throw new ApiError(409, 'outside_call_window', `Outside the call window (${window.start}–${window.end} ${zone}): no call placed; it opens at ${opens}`);
  }

  const callId = randomUUID();
  const call = { id: callId, workspaceId, agentId: agent.id, leadId: ctx.leadId, to, from, requestData: r.requestData };
  if (!(await createApiCallHoldingSlot(db, call))) {
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
  return { call_id: callId, to, from, agent: agent.id };
}

/** Throws 409 when a call's status says it has ended. */
export function assertCancelable(status: string): void {
  if (['completed', 'busy', 'no_answer', 'failed', 'canceled'].includes(status)) throw conflict(`Call has already ended (status ${status})`);
}
