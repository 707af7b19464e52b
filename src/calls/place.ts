import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { DateTime } from 'luxon';
import { ApiError, badRequest, conflict, notFound, unavailable } from '../core/errors';
import { reclaimStaleSlots } from './db/call-slots';
import { deleteUnstartedCall } from './db/calls';
import { callAgentFacts, placeCallIfAllowed, type ApiCall, type CallAgentFacts, type PlacedCallFacts } from './db/calls-place';
import type { Db } from '../db/pool';
import { isUuid } from '../core/ids';
import { isWindowOpen, msUntilWindow } from '../schedule/window';
import { normalizePhone } from '../core/phone';
import { callTimeZone, effectiveWindow } from './rules';
import { startOutboundCall } from './start';
import { expiringCache } from '../core/expiring-cache';

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

// An agent's facts as last read (its workspace's region and zone, its window), by workspace and agent. A call is judged
// on them before its one statement, which writes the call only if they still hold, and else says what they are now.
const agentFacts = expiringCache<string, CallAgentFacts>({ max: 10_000, ttlMs: 10 * 60_000 });

/** Tries before a call whose facts keep changing under it is answered 503 (each try reads them anew). */
const ATTEMPTS = 4;
const FROM_NOT_OURS = "from: not one of this workspace's phone numbers";

async function readAgentFacts(db: Db, workspaceId: string, agentId: string, key: string): Promise<CallAgentFacts> {
  const facts = await callAgentFacts(db, workspaceId, agentId);
  if (!facts) {
    agentFacts.delete(key);
    throw notFound(INVALID_AGENT);
  }
  agentFacts.set(key, facts);
  return facts;
}

/** Throws the refusal the facts a placing statement read call for (in the spec's order), if any. */
function refuse(got: PlacedCallFacts, r: CallRequest): void {
  if (!got.chosenFrom) {
    if (r.from !== undefined) throw badRequest(FROM_NOT_OURS);
    // The request is fine; the agent is not ready to call (a state of the workspace, not of the input).
    throw conflict('The agent has no phone group numbers to call from: add one (PATCH /v1/agents/{id}) or give `from`');
  }
  if (got.doNotCall) throw new ApiError(409, 'do_not_call', 'Phone number is on the do-not-call list: no call placed');
  const zone = callTimeZone(got.leadTimezone, got.workspaceTimezone);
  const window = effectiveWindow(undefined, got.call_window);
  const wait = msUntilWindow(Date.now(), window, zone);
  if (wait > 0) {
    const opens = DateTime.fromMillis(Date.now() + wait, { zone }).toISO({ suppressMilliseconds: true });
    throw new ApiError(409, 'outside_call_window', `Outside the call window (${window.start}–${window.end} ${zone}): no call placed; it opens at ${opens}`);
  }
}

const overCap = (cap: number) =>
  new ApiError(
    429,
    'concurrent_call_cap',
    `Concurrent call cap reached: this workspace may have ${cap} call${cap === 1 ? '' : 's'} in progress at once (its concurrent-call cap); retry when one ends`,
    { 'Retry-After': String(CAP_RETRY_AFTER_SECONDS) },
  );

/**
 * Places a call for the api: every refusal (unknown agent, bad phone or caller id, do-not-call, outside the window,
 * over the concurrent-call cap) is answered before anything is written. The call is judged on its agent's facts (as
 * last read) and written by one statement that checks every rule on the facts it reads, and that those are the facts
 * the call was judged on; then the outboundCall workflow is started.
 */
export async function placeApiCall(
  deps: { db: Db; client: Client; taskQueuePrefix: string },
  workspaceId: string,
  r: CallRequest,
): Promise<{ call_id: string; to: string; from: string; agent: string }> {
  const { db } = deps;
  if (!isUuid(r.agent)) throw notFound(INVALID_AGENT);
  const agentId = r.agent.toLowerCase();
  const key = `${workspaceId}:${agentId}`;
  const callId = randomUUID();
  let facts = agentFacts.get(key);
  let leadTimezone: string | null = null;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    facts ??= await readAgentFacts(db, workspaceId, agentId, key);
    const to = normalizePhone(r.phone, facts.default_region);
    const given = r.from !== undefined ? normalizePhone(r.from, facts.default_region) : undefined;
    if (!to || (r.from !== undefined && !given)) {
      // Bad input, judged on facts read now: the agent may be gone, the region may have changed.
      const now = await readAgentFacts(db, workspaceId, agentId, key);
      if (now.default_region !== facts.default_region) {
        facts = now;
        continue;
      }
      throw badRequest(to ? FROM_NOT_OURS : 'phone: not a valid phone number');
    }
    const windowOpen = isWindowOpen(Date.now(), effectiveWindow(undefined, facts.call_window), callTimeZone(leadTimezone, facts.workspaceTimezone));
    const call = { id: callId, workspaceId, agentId, to, from: given ?? null, requestData: r.requestData };
    const got = await placeCallIfAllowed(db, call, { ...facts, leadTimezone, windowOpen });
    if (!got) {
      agentFacts.delete(key);
      throw notFound(INVALID_AGENT);
    }
    if (got.placed) return start(deps, call, got);
    const now: CallAgentFacts = { default_region: got.default_region, workspaceTimezone: got.workspaceTimezone, call_window: got.call_window };
    agentFacts.set(key, now);
    const judgedOn = facts;
    facts = now;
    leadTimezone = got.leadTimezone;
    // Another region reads the phones differently: normalise again.
    if (got.default_region !== judgedOn.default_region) continue;
    refuse(got, r);
    // No refusal on the facts read: the call was judged on others (changed, or the lead's zone unknown); again on these.
    if (!got.allowed) continue;
    if ((await reclaimStaleSlots(db, workspaceId)) === 0) throw overCap(got.maxConcurrentCalls);
  }
  throw unavailable("The call's agent or workspace changed while it was being placed: nothing was placed; retry");
}

/** Starts the placed call's workflow; a call whose start fails is deleted (it was never dialled). */
async function start(
  deps: { db: Db; client: Client; taskQueuePrefix: string },
  call: ApiCall,
  got: PlacedCallFacts,
): Promise<{ call_id: string; to: string; from: string; agent: string }> {
  const from = got.chosenFrom!;
  try {
    await startOutboundCall(deps.client, deps.taskQueuePrefix, {
      callId: call.id,
      workspaceId: call.workspaceId,
      agentId: got.id,
      to: call.to,
      from,
      ...(got.leadId ? { leadId: got.leadId } : {}),
      ...(call.requestData !== undefined ? { requestData: call.requestData } : {}),
      waitForSlot: false,
      source: 'api',
    });
  } catch (err) {
    await deleteUnstartedCall(deps.db, call.id).catch(() => undefined);
    throw err;
  }
  return { call_id: call.id, to: call.to, from, agent: got.id };
}

/** Throws 409 when a call's status says it has ended. */
export function assertCancelable(status: string): void {
  if (['completed', 'busy', 'no_answer', 'failed', 'canceled'].includes(status)) throw conflict(`Call has already ended (status ${status})`);
}
