import { ApplicationFailure, Context } from '@temporalio/activity';
import { loadConfig, telephonyUrls, type Config } from '../../src/core/config';
import { admitQueuedCall, msUntilOpen } from '../../src/calls/admission';
import { SlotWakeups } from '../../src/calls/slot-wakeups';
import { acquireCallSlot, releaseCallSlot } from '../../src/calls/db/call-slots';
import {
  applyCallChange,
  createLeg,
  endCall,
  markTransferred,
  providerSidOf,
  recordedProviderSids,
  setProviderSid,
  type CallChange,
} from '../../src/calls/db/calls';
import type { Db } from '../../src/db/pool';
import type { TimeWindow } from '../../src/schedule/window-schema';
import type { Logger } from '../../src/telemetry/log';
import { TelephonyError } from '../../src/telephony/errors';
import { telephonyProviderFromConfig } from '../../src/telephony/from-config';
import { voiceAgentUrlForCall } from '../../src/telephony/twilio';
import type { ProviderCall, TelephonyProvider } from '../../src/telephony/provider';
import type { OutboundCallInput } from '../../workflows/calls/outbound-call-types';

/** What the workflow needs to place a prepared call, or why it must not be placed. */
export type PreparedCall =
  | { ok: true; from: string; leadId: string | null; timeZone: string; window: TimeWindow; transferTo: string | null; providerTimeoutMs: number }
  | { ok: false; reason: 'do_not_call' | 'invalid_agent' | 'no_caller_id' };

/** A call and its transfer legs (oldest first) as the provider reports them. */
export interface ProviderView {
  call: ProviderCall;
  legs: ProviderCall[];
}

/** How far before the first placement attempt a provider's creation time may read (clock skew, whole seconds). */
const ADOPT_SKEW_MS = 60_000;

/** A TelephonyError as the Temporal failure the workflow sees (retryable or not, after the provider's Retry-After). */
const asFailure = (err: unknown) =>
  err instanceof TelephonyError
    ? ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable, nextRetryDelay: err.retryAfterMs ?? undefined })
    : err;

/** Longest a call waiting for a slot goes without looking again (a released slot wakes it at once). */
const SLOT_RECHECK_MAX_MS = 10_000;

/** Activities of the outboundCall workflow: checks, slots, placement through the provider, and the call's record. */
export function createCallActivities(deps: { db: Db; logger: Logger; config?: Config; provider?: TelephonyProvider }) {
  const { db } = deps;
  const config = deps.config ?? loadConfig({});
  const provider = deps.provider ?? telephonyProviderFromConfig(config);
  const wakeups = new SlotWakeups(db);

  /** The oldest top-level call between the numbers created since `sinceMs` that no call of ours carries, if any. */
  const placedEarlier = async (to: string, from: string, sinceMs: number): Promise<string | null> => {
    const recent = (await provider.listCalls({ to, from })).filter((c) => c.parentCallSid === null && Date.parse(c.createdAt) >= sinceMs);
    const taken = await recordedProviderSids(
      db,
      recent.map((c) => c.sid),
    );
    return recent.filter((c) => !taken.has(c.sid)).at(-1)?.sid ?? null;
  };

  return {
    /** Asks call admission (src/calls/admission.ts) about the call and records it queued if new; the window and the slot wait. */
    async prepareCall(input: OutboundCallInput): Promise<PreparedCall> {
      const v = await admitQueuedCall(db, input);
      if (!v.ok) return { ok: false, reason: v.code === 'do_not_call' || v.code === 'invalid_agent' ? v.code : 'no_caller_id' };
      return {
        ok: true,
        from: v.from,
        leadId: input.leadId ?? v.leadId,
        timeZone: v.zone,
        window: v.window,
        transferTo: v.transferTo,
        providerTimeoutMs: config.CALL_PROVIDER_TIMEOUT_SECONDS * 1000,
      };
    },

    /** Milliseconds until the window opens in the zone (0: open now). */
    async msUntilCallWindow(a: { window: TimeWindow; timeZone: string }): Promise<number> {
      return msUntilOpen(a);
    },

    /** Takes a concurrent-call slot; false at the workspace's cap. */
    async acquireCallSlot(a: { workspaceId: string; callId: string }): Promise<boolean> {
      return (await acquireCallSlot(db, a.workspaceId, a.callId)) === 'taken';
    },

    /**
     * Waits until the call takes a slot (true), or the call has ended meanwhile (false): woken by every slot the
     * workspace releases, and looking again on a bounded backoff in case a notice was missed. The wait costs the
     * workflow no history events; heartbeats carry cancellation and a worker's death.
     */
    async waitForCallSlot(a: { workspaceId: string; callId: string }): Promise<boolean> {
      const ctx = Context.current();
      const watch = await wakeups.watch(a.workspaceId);
      try {
        for (let attempt = 0; ; attempt++) {
          // Cancelled (the call, or this worker shutting down): stop at once, whatever woke us.
          if (ctx.cancellationSignal.aborted) await ctx.cancelled;
          const released = watch.next();
          const take = await acquireCallSlot(db, a.workspaceId, a.callId);
          if (take !== 'full') return take === 'taken';
          ctx.heartbeat(attempt);
          await Promise.race([ctx.cancelled, released, ctx.sleep(Math.min(SLOT_RECHECK_MAX_MS, 1000 * 2 ** attempt))]);
        }
      } finally {
        watch.close();
      }
    },

    /** Frees the call's slot (idempotent). */
    async releaseCallSlot(a: { callId: string }): Promise<void> {
      await releaseCallSlot(db, a.callId);
    },

    /**
     * Places the call once: a sid already recorded is returned as is; a retry first looks for a call the provider
     * accepted from an earlier attempt whose answer was lost (a crash before the sid was written) and adopts it, as
     * Twilio takes no idempotency key; the call id still goes along as one (honoured by the simulator).
     */
    async placeCall(a: { callId: string; to: string; from: string; transferTo: string | null }): Promise<{ providerCallId: string }> {
      const known = await providerSidOf(db, a.callId);
      if (known) return { providerCallId: known };
      try {
        const info = Context.current().info;
        if (info.attempt > 1) {
          const adopted = await placedEarlier(`+${a.to}`, `+${a.from}`, info.scheduledTimestampMs - ADOPT_SKEW_MS);
          if (adopted) {
            deps.logger.info({ callId: a.callId, attempt: info.attempt }, 'adopted the call an earlier attempt placed');
            await setProviderSid(db, a.callId, adopted);
            return { providerCallId: adopted };
          }
        }
        const urls = telephonyUrls(config);
        const statusCallbackUrl = `${urls.statusCallback}?call_id=${encodeURIComponent(a.callId)}`;
        const placed = await provider.placeCall({
          callId: a.callId,
          to: `+${a.to}`,
          from: `+${a.from}`,
          voiceAgentUrl: voiceAgentUrlForCall(urls.voiceAgent, a.callId),
          statusCallbackUrl,
          machineDetection: 'DetectMessageEnd',
          ...(a.transferTo ? { transferTo: `+${a.transferTo}` } : {}),
        });
        await setProviderSid(db, a.callId, placed.providerCallId);
        return placed;
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** The call and its transfer legs as the provider knows them now (callbacks may have been lost). */
    async readProviderCall(a: { providerCallId: string }): Promise<ProviderView> {
      try {
        const [call, legs] = await Promise.all([provider.fetchCall(a.providerCallId), provider.listCalls({ parentCallSid: a.providerCallId })]);
        // Listed newest first; creation times have whole seconds, so reversing first keeps ties in order.
        return { call, legs: legs.reverse().sort((x, y) => Date.parse(x.createdAt) - Date.parse(y.createdAt)) };
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** Stops a placed call at the provider (hangs up whatever its state); a call the provider no longer knows is fine. */
    async stopProviderCall(a: { providerCallId: string }): Promise<void> {
      try {
        await provider.hangUpCall(a.providerCallId);
      } catch (err) {
        if (err instanceof TelephonyError && !err.retryable) return;
        throw err;
      }
    },

    /** Applies one provider event to the call (leg 0) or a transfer leg, creating the leg's row on its first event. */
    async recordCallChange(a: { callId: string; leg: number; providerSid: string; to: string; change: CallChange }): Promise<void> {
      if (a.leg > 0) await createLeg(db, a.callId, a.leg, a.providerSid, a.to);
      await applyCallChange(db, a.leg > 0 ? `${a.callId}:${a.leg}` : a.callId, a.change);
      if (a.leg > 0 && (a.change.status === 'in_progress' || a.change.status === 'completed')) await markTransferred(db, a.callId);
    },

    /** Records how the call ended (outcome, ended_reason; the status when the workflow ended it itself). */
    async endCall(a: { callId: string; status: string; outcome: string; endedReason: string }): Promise<void> {
      await endCall(db, a.callId, a);
    },
  };
}
