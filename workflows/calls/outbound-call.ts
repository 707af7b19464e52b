// outboundCall: one outbound call from the checks to its end (id `call:<callId>`).
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { createCallActivities } from '../../activities/calls/calls';
import { SA } from '../../src/temporal/search-attribute-keys';
import { publishCallEvent } from './call-events';
import { eventsFromProvider, type Applied } from './outbound-call-provider';
import {
  CALL_EVENT_SIGNAL,
  CALL_RECHECK_SIGNAL,
  type CallLifecycleStatus,
  type CallOutcome,
  type CallResult,
  type OutboundCallInput,
  type SignalledCallEvent,
} from './outbound-call-types';

type CallActivities = ReturnType<typeof createCallActivities>;

/** Database work: short, retried until the database answers. */
const data = proxyActivities<CallActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Provider requests: retried while the provider reports a retryable failure, for a few minutes at most. */
const provider = proxyActivities<CallActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
});

/** A provider status callback for this call or one of its transfer legs. */
const callEventSignal = defineSignal<[SignalledCallEvent]>(CALL_EVENT_SIGNAL);
/** Read the call from the provider now (sent by the api after it restarts: callbacks it missed are lost). */
const callRecheckSignal = defineSignal(CALL_RECHECK_SIGNAL);
/**
 * The patch after which the provider is asked before deciding on silence and on a recheck signal, and legs are only
 * child calls of this call's sid.
 */
const PROVIDER_TRUTH_PATCH = 'call-provider-truth';

/** The patch after which an answered call with a transfer number reads the provider once more before it ends. */
const FINAL_READ_PATCH = 'call-final-provider-read';

/** How often a journey call waiting for a concurrent-call slot looked again, before the wake-up patch. */
const SLOT_POLL = '5 seconds';
/** The patch that replaced that poll with one waiting activity, woken by released slots. */
const SLOT_WAKEUP_PATCH = 'call-slot-wakeup';

/** Waiting for a slot: as long as it takes (a journey's call waits its turn), heartbeating so that a dead worker's
 * wait moves to another and cancellation reaches it. */
const slotWait = proxyActivities<CallActivities>({
  startToCloseTimeout: '7 days',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
/** After the call ends, how long transfer legs still open get to report their end. */
const LEG_GRACE_MS = 2_000;

const TERMINAL = new Set<CallLifecycleStatus>(['completed', 'busy', 'no_answer', 'failed', 'canceled']);
const lifecycle = (providerStatus: string) => providerStatus.replace(/-/g, '_') as CallLifecycleStatus;

const failureType = (err: ActivityFailure) => (err.cause instanceof ApplicationFailure && err.cause.type) || 'provider_failed';

/** What a call that ended at the provider comes to, for journeys to branch on. */
function outcomeOf(status: CallLifecycleStatus, answeredBy: string | null, transferred: boolean): CallOutcome {
  if (status === 'completed') {
    if (transferred) return 'transferred';
    return answeredBy && answeredBy !== 'human' && answeredBy !== 'unknown' ? 'voicemail' : 'human';
  }
  return status === 'busy' || status === 'no_answer' || status === 'canceled' ? status : 'failed';
}

/**
 * Checks the do-not-call list, waits for the call window and a concurrent-call slot, places the call (once: a retry
 * adopts a call an earlier attempt placed), follows the provider's events (signal `callEvent`) to the end while
 * recording every change and leg, and returns the outcome. On provider silence past the configured timeout, and on a
 * `recheckProvider` signal, it reads the call and its child calls from the provider and applies what they say; a call
 * still unanswered after the silence is stopped and fails (`provider_timeout`). Cancelling the workflow stops the call
 * at the provider (outcome canceled). The slot is released however it ends.
 */
export async function outboundCall(input: OutboundCallInput): Promise<CallResult> {
  const { callId } = input;
  upsertSearchAttributes([
    { key: SA.WorkspaceId, value: input.workspaceId },
    { key: SA.CallId, value: callId },
    { key: SA.AgentId, value: input.agentId },
  ]);

  const truth = patched(PROVIDER_TRUTH_PATCH);
  const inbox: SignalledCallEvent[] = [];
  setHandler(callEventSignal, (e) => void inbox.push(e));
  let recheck = false;
  setHandler(callRecheckSignal, () => void (recheck = true));

  let providerSid: string | null = null;
  const legs = new Map<string, number>();
  const applied: Applied = new Map();
  let status: CallLifecycleStatus = 'queued';
  let answeredBy: string | null = null;
  let transferred = false;

  const finish = async (outcome: CallOutcome, endStatus: CallLifecycleStatus, endedReason: string): Promise<CallResult> => {
    return CancellationScope.nonCancellable(async () => {
      await data.endCall({ callId, status: endStatus, outcome, endedReason });
      await data.releaseCallSlot({ callId });
      upsertSearchAttributes([{ key: SA.Outcome, value: outcome }]);
      if (providerSid) await publishCallEvent({ workspaceId: input.workspaceId, callId, type: 'call.completed' });
      return { callId, outcome, status: TERMINAL.has(status) ? status : endStatus, endedReason, legs: legs.size };
    });
  };

  /** Applies the queued provider events in arrival order; duplicates and late ones are dropped. */
  const drain = async () => {
    while (inbox.length) {
      const e = inbox.shift()!;
      const next = lifecycle(e.status);
      // A leg is a child call of this call's sid; before the patch, any call naming a parent was taken for one.
      const isLeg = truth ? e.parentCallSid !== null && e.parentCallSid === providerSid : e.parentCallSid !== null && e.callSid !== providerSid;
      if (!isLeg && e.callSid !== providerSid) continue;
      const prev = applied.get(e.callSid);
      if (prev && (TERMINAL.has(prev.status) || e.sequence <= prev.sequence)) continue;
      applied.set(e.callSid, { status: next, sequence: e.sequence });
      let leg = 0;
      if (isLeg) {
        leg = legs.get(e.callSid) ?? legs.size + 1;
        legs.set(e.callSid, leg);
        if (next === 'in_progress' || next === 'completed') transferred = true;
      } else {
        status = next;
        answeredBy = e.answeredBy ?? answeredBy;
      }
      await data.recordCallChange({
        callId,
        leg,
        providerSid: e.callSid,
        to: e.to.replace(/^\+/, ''),
        change: {
          status: next,
          sequence: e.sequence,
          answeredBy: isLeg ? null : e.answeredBy,
          disposition: e.disposition,
          at: e.timestamp,
          durationSeconds: e.durationSeconds,
          transcript: e.transcript,
          recordingUrl: e.recordingUrl,
        },
      });
    }
  };

  /** The provider's view of the call, or null when it cannot be read (the call goes on as the callbacks say). */
  const readProvider = (sid: string) =>
    provider.readProviderCall({ providerCallId: sid }).catch((err: unknown) => {
      if (err instanceof ActivityFailure && !isCancellation(err)) return null;
      throw err;
    });

  try {
    const prepared = await data.prepareCall(input);
    if (!prepared.ok) return await finish('failed', 'failed', prepared.reason);
    if (prepared.leadId) upsertSearchAttributes([{ key: SA.LeadId, value: prepared.leadId }]);

    for (let wait = await data.msUntilCallWindow(prepared); wait > 0; wait = await data.msUntilCallWindow(prepared)) await sleep(wait);
    if (patched(SLOT_WAKEUP_PATCH)) {
      // An api call holds its slot already (taken with its row): the take is a no-op for it.
      const held = await data.acquireCallSlot({ workspaceId: input.workspaceId, callId });
      if (!held && !input.waitForSlot) return await finish('failed', 'failed', 'concurrency_cap');
      if (!held && !(await slotWait.waitForCallSlot({ workspaceId: input.workspaceId, callId }))) return await finish('failed', 'failed', 'ended');
    } else {
      // Runs recorded before the patch looked again every SLOT_POLL, a timer each.
      while (!(await data.acquireCallSlot({ workspaceId: input.workspaceId, callId }))) {
        if (!input.waitForSlot) return await finish('failed', 'failed', 'concurrency_cap');
        await sleep(SLOT_POLL);
      }
    }

    const placed = await provider.placeCall({ callId, to: input.to, from: prepared.from, transferTo: prepared.transferTo });
    providerSid = placed.providerCallId;
    await publishCallEvent({ workspaceId: input.workspaceId, callId, type: 'call.started' });

    while (!TERMINAL.has(status)) {
      // A run from before the patch ignores the signal (it cannot answer it as recorded).
      const heard = await condition(() => inbox.length > 0 || (truth && recheck), prepared.providerTimeoutMs);
      if (truth && (recheck || !heard)) {
        recheck = false;
        const view = await readProvider(placed.providerCallId);
        // Callbacks already in hand first: the provider's view is sequenced after them.
        await drain();
        if (view) inbox.push(...eventsFromProvider(view, applied, new Date().toISOString()));
        await drain();
        // Silent and never answered (or unreadable): the call is stuck at the provider. An answered call talks on.
        if (!heard && !TERMINAL.has(status) && view?.call.status !== 'in-progress') {
          await CancellationScope.nonCancellable(() => provider.stopProviderCall({ providerCallId: placed.providerCallId }));
          return await finish('failed', 'failed', 'provider_timeout');
        }
        continue;
      }
      if (!heard) {
        await CancellationScope.nonCancellable(() => provider.stopProviderCall({ providerCallId: placed.providerCallId }));
        return await finish('failed', 'failed', 'provider_timeout');
      }
      await drain();
    }
    const legOpen = () => [...legs.keys()].some((sid) => !TERMINAL.has(applied.get(sid)!.status));
    while (legOpen() && (await condition(() => inbox.length > 0, LEG_GRACE_MS))) await drain();
    // A leg's callbacks refused during an outage behind the api are never sent again: an answered call that may have
    // been transferred ends as the provider saw it, legs included.
    if (truth && (status as CallLifecycleStatus) === 'completed' && prepared.transferTo && patched(FINAL_READ_PATCH)) {
      const view = await readProvider(placed.providerCallId);
      if (view) inbox.push(...eventsFromProvider(view, applied, new Date().toISOString()));
      await drain();
    }
    const outcome = outcomeOf(status, answeredBy, transferred);
    return await finish(outcome, status, outcome === 'failed' ? 'provider_failed' : outcome);
  } catch (err) {
    if (!isCancellation(err)) {
      // A provider that refused the call for good (or kept failing): the call ends failed, with the failure's type.
      if (err instanceof ActivityFailure) return await finish('failed', 'failed', failureType(err));
      await CancellationScope.nonCancellable(() => data.releaseCallSlot({ callId }));
      throw err;
    }
    if (providerSid) {
      const sid = providerSid;
      await CancellationScope.nonCancellable(() => provider.stopProviderCall({ providerCallId: sid }));
    }
    return await finish('canceled', 'canceled', 'canceled');
  }
}
