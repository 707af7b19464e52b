/**
 * Call admission: the one place a call is judged (unknown agent, caller id, do-not-call list, call window, concurrent-
 * call cap), for every caller: POST /v1/agent asks admitApiCall; everything else that places a call (a journey's call
 * step, campaigns) starts the outboundCall workflow, whose prepareCall activity asks admitQueuedCall.
 *
 * One language, TypeScript: the window needs time-zone and DST arithmetic (src/journeys/window.ts) that plpgsql would
 * have to repeat, and a refusal is worded with the instant the window opens. The database only holds the cap exact
 * under concurrency: a slot is taken by a conditional upsert on the workspace's counter row in the statement that
 * writes the call (src/calls/db/admission.ts), or later by the workflow (acquireCallSlot). What a call is judged on is
 * read by one statement just before; a do-not-call entry added within that round trip is not seen.
 */
import { DateTime } from 'luxon';
import { DomainError } from '../core/errors';
import { expiringCache } from '../core/expiring-cache';
import { reclaimStaleSlots } from './db/call-slots';
import type { Queryable } from '../db/pool';
import { msUntilWindow } from '../schedule/window';
import type { TimeWindow } from '../schedule/window-schema';
import { normalizePhone } from '../core/phone';
import type { CallWindow } from '../../workflows/calls/outbound-call-types';
import { readAdmissionFacts, recordQueuedCall, workspaceRegion, writeCallHoldingSlot, type AdmissionFacts, type AdmittedCall } from './db/admission';
import { callTimeZone, chooseFrom, effectiveWindow } from './rules';

/** Why a call is not placed. */
export type Refusal =
  | { code: 'invalid_agent' | 'invalid_phone' | 'from_not_ours' | 'do_not_call' | 'no_caller_id' }
  | { code: 'outside_call_window'; window: TimeWindow; zone: string; opensAt: number }
  | { code: 'concurrent_call_cap'; cap: number };

/** A call that may be placed: its caller id (chosen from the agent's group unless given), lead, and window. */
export interface Admitted {
  from: string;
  /** The caller id was chosen here (it is then marked used). */
  chosen: boolean;
  leadId: string | null;
  transferTo: string | null;
  zone: string;
  window: TimeWindow;
  /** Milliseconds until the window opens (0: open now). */
  opensInMs: number;
}

export type Verdict = ({ ok: true } & Admitted) | ({ ok: false } & Refusal);

/** What a caller asks for: a destination (digits), maybe a caller id, maybe a journey step's window. */
export interface CallAsk {
  to: string;
  from?: string | null;
  window?: CallWindow;
}

/**
 * Judges a call on its facts at `now`, refusing in this order: an agent not the workspace's, a given caller id not one
 * of its numbers, the destination on the do-not-call list, no caller id to call from, and (unless the caller waits for
 * it) the window closed.
 */
export function judgeCall(facts: AdmissionFacts | undefined, ask: CallAsk, now: number, o: { waitForWindow: boolean }): Verdict {
  if (!facts?.agentId) return { ok: false, code: 'invalid_agent' };
  if (ask.from && !facts.givenFromIsOurs) return { ok: false, code: 'from_not_ours' };
  if (facts.doNotCall) return { ok: false, code: 'do_not_call' };
  const from = ask.from || chooseFrom(facts.groupNumbers, ask.to);
  if (!from) return { ok: false, code: 'no_caller_id' };
  const zone = callTimeZone(facts.leadTimezone, facts.workspaceTimezone);
  const window = effectiveWindow(ask.window, facts.agentWindow);
  const opensInMs = msUntilWindow(now, window, zone);
  if (opensInMs > 0 && !o.waitForWindow) return { ok: false, code: 'outside_call_window', window, zone, opensAt: now + opensInMs };
  return { ok: true, from, chosen: !ask.from, leadId: facts.leadId, transferTo: facts.transferNumber, zone, window, opensInMs };
}

/** Seconds a client over the concurrent-call cap is told to wait (a call lasts about that long). */
const CAP_RETRY_AFTER_SECONDS = 30;
const INVALID_AGENT = 'Invalid agent';

/** The DomainError a refusal answers with, worded for the caller. */
export function refusalError(r: Refusal): DomainError {
  switch (r.code) {
    case 'invalid_agent':
      return new DomainError('agent_not_found', INVALID_AGENT);
    case 'invalid_phone':
      return new DomainError('invalid_fields', 'phone: not a valid phone number');
    case 'from_not_ours':
      return new DomainError('invalid_fields', "from: not one of this workspace's phone numbers");
    case 'no_caller_id':
      // The request is fine; the agent is not ready to call (a state of the workspace, not of the input).
      return new DomainError('no_caller_id', 'The agent has no phone group numbers to call from: add one (PATCH /v1/agents/{id}) or give `from`');
    case 'do_not_call':
      return new DomainError('do_not_call', 'Phone number is on the do-not-call list: no call placed');
    case 'outside_call_window': {
      const opens = DateTime.fromMillis(r.opensAt, { zone: r.zone }).toISO({ suppressMilliseconds: true });
      return new DomainError(
        'outside_call_window',
        `Outside the call window (${r.window.start}–${r.window.end} ${r.zone}): no call placed; it opens at ${opens}`,
      );
    }
    case 'concurrent_call_cap':
      return new DomainError(
        'concurrent_call_cap',
        `Concurrent call cap reached: this workspace may have ${r.cap} call${r.cap === 1 ? '' : 's'} in progress at once (its concurrent-call cap); retry when one ends`,
        { retryAfterSeconds: CAP_RETRY_AFTER_SECONDS },
      );
  }
}

// The region each workspace's phones are read in, as last read (the facts statement says when it changed), and the
// reads in flight (a burst of calls to a workspace reads it once).
const regions = expiringCache<string, string>({ max: 10_000, ttlMs: 10 * 60_000 });
const regionReads = new Map<string, Promise<string | undefined>>();

function readRegion(db: Queryable, workspaceId: string): Promise<string | undefined> {
  let read = regionReads.get(workspaceId);
  if (!read) {
    read = workspaceRegion(db, workspaceId).finally(() => regionReads.delete(workspaceId));
    regionReads.set(workspaceId, read);
  }
  return read;
}

// Caller ids this process chose in the last minute (by workspace and number: when). Calls judged at once read the same
// last-use order (their reads share a statement); this keeps them from all choosing the same number before the
// writes mark it used.
const justChosen = expiringCache<string, number>({ max: 10_000, ttlMs: 60_000 });

/** The group's numbers least recently used first, counting the ones chosen here that the facts read may not show yet. */
function byLastUse(workspaceId: string, numbers: string[]): string[] {
  const chosenAt = (n: string) => justChosen.get(`${workspaceId}:${n}`) ?? -1;
  return numbers
    .map((n, i) => ({ n, i, at: chosenAt(n) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.n);
}

/** Judges a call on facts read now, remembering the caller id it chooses. */
function judgeNow(workspaceId: string, facts: AdmissionFacts | undefined, ask: CallAsk, o: { waitForWindow: boolean }): Verdict {
  const verdict = judgeCall(facts && { ...facts, groupNumbers: byLastUse(workspaceId, facts.groupNumbers) }, ask, Date.now(), o);
  if (verdict.ok && verdict.chosen) justChosen.set(`${workspaceId}:${verdict.from}`, performance.now());
  return verdict;
}

/** Tries before a call whose workspace's region keeps changing under it gives up (each try reads it anew). */
const ATTEMPTS = 4;

/** What POST /v1/agent asks for. */
export interface ApiCallAsk {
  id: string;
  agentId: string;
  phone: string;
  from?: string;
  requestData?: unknown;
}

/**
 * Admits an api call and writes it holding a slot, or refuses it writing nothing: the window must be open and a slot
 * free now (an api call never waits). Phones are read in the workspace's region.
 */
export async function admitApiCall(
  db: Queryable,
  workspaceId: string,
  ask: ApiCallAsk,
): Promise<({ ok: true; call: AdmittedCall } & Admitted) | ({ ok: false } & Refusal)> {
  let region = regions.get(workspaceId);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    region ??= await readRegion(db, workspaceId);
    if (region === undefined) return { ok: false, code: 'invalid_agent' };
    regions.set(workspaceId, region);
    const to = normalizePhone(ask.phone, region);
    const given = ask.from !== undefined ? normalizePhone(ask.from, region) : undefined;
    if (!to || (ask.from !== undefined && !given)) {
      // Bad input, judged on the region read now.
      const now = await workspaceRegion(db, workspaceId);
      if (now !== region) {
        region = now;
        continue;
      }
      return { ok: false, code: to ? 'from_not_ours' : 'invalid_phone' };
    }
    const facts = await readAdmissionFacts(db, { workspaceId, agentId: ask.agentId, to, from: given });
    if (facts && facts.defaultRegion !== region) {
      // Another region reads the phones differently: normalise again.
      region = facts.defaultRegion;
      continue;
    }
    const verdict = judgeNow(workspaceId, facts, { to, from: given }, { waitForWindow: false });
    if (!verdict.ok) return verdict;
    const call: AdmittedCall = { id: ask.id, workspaceId, agentId: ask.agentId, leadId: verdict.leadId, to, from: verdict.from, requestData: ask.requestData };
    for (;;) {
      const written = await writeCallHoldingSlot(db, call);
      if (written === 'placed') return { ...verdict, call };
      if (written === 'agent_gone') return { ok: false, code: 'invalid_agent' };
      if ((await reclaimStaleSlots(db, workspaceId)) === 0) return { ok: false, code: 'concurrent_call_cap', cap: facts!.maxConcurrentCalls };
    }
  }
  throw new DomainError('call_facts_changed', "The call's workspace changed while it was being placed: nothing was placed; retry");
}

/** A call the outboundCall workflow is asked to place (from the api, a journey, a campaign). */
export interface QueuedCallAsk extends CallAsk {
  callId: string;
  workspaceId: string;
  agentId: string;
  leadId?: string;
  requestData?: unknown;
}

/**
 * Admits a call that waits for its window and its slot (the outboundCall workflow does both), recording it queued; an
 * api call's row, written at admission, is kept. Refuses an unknown agent, the do-not-call list and a missing caller id.
 */
export async function admitQueuedCall(db: Queryable, ask: QueuedCallAsk): Promise<Verdict> {
  const facts = await readAdmissionFacts(db, ask);
  const verdict = judgeNow(ask.workspaceId, facts, ask, { waitForWindow: true });
  if (verdict.ok) {
    const call = {
      id: ask.callId,
      workspaceId: ask.workspaceId,
      agentId: ask.agentId,
      leadId: ask.leadId ?? verdict.leadId,
      to: ask.to,
      from: verdict.from,
      requestData: ask.requestData,
    };
    await recordQueuedCall(db, call, verdict.chosen);
  }
  return verdict;
}

/** Milliseconds until an admitted call's window opens in its zone (0: open now). */
export const msUntilOpen = (a: { window: TimeWindow; timeZone: string }, now = Date.now()): number => msUntilWindow(now, a.window, a.timeZone);

/**
 * Judges a journey's call to a lead before it is placed: the refusal it would meet now, window and slot aside. A lead
 * on the do-not-call list is refused as such whatever the agent (a journey skips the step rather than fail it).
 */
export async function judgeLeadCall(db: Queryable, c: { workspaceId: string; agentId: string; to: string; leadId: string }): Promise<Verdict> {
  const facts = await readAdmissionFacts(db, c);
  if (facts?.doNotCall) return { ok: false, code: 'do_not_call' };
  return judgeCall(facts, c, Date.now(), { waitForWindow: true });
}
