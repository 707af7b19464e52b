// The outboundCall workflow's contract: what a caller (the api, a journey's call step) hands in and gets back.
// Types only, so workflow code and src/ can both import it.
import type { CallEvent } from '../../src/telephony/provider';

/** What a call ends as; journeys branch on it. */
export type CallOutcome = 'human' | 'voicemail' | 'no_answer' | 'busy' | 'failed' | 'transferred' | 'canceled';

/** A call's lifecycle status as stored and shown (`status` on GET /v1/calls/get). */
export type CallLifecycleStatus = 'queued' | 'ringing' | 'in_progress' | 'completed' | 'busy' | 'no_answer' | 'failed' | 'canceled';

/** Local hours a call may be placed in (the lead's time zone, else the workspace's); days default to every day. */
export interface CallWindow {
  start: string;
  end: string;
  days?: string[];
}

/** Input of outboundCall (workflow id `call:<callId>`). Phones are digits (E.164 without '+'). */
export interface OutboundCallInput {
  callId: string;
  workspaceId: string;
  agentId: string;
  to: string;
  /** One of the workspace's numbers; chosen from the agent's phone group when absent. */
  from?: string;
  leadId?: string;
  requestData?: unknown;
  /** A journey step's window; else the agent's, else 08:00–21:00 every day. */
  window?: CallWindow;
  /** Over the workspace's concurrent-call cap: wait for a slot (journeys) rather than fail (the api checks first). */
  waitForSlot: boolean;
  source: 'api' | 'journey' | 'campaign';
}

/** What outboundCall returns. */
export interface CallResult {
  callId: string;
  outcome: CallOutcome;
  status: CallLifecycleStatus;
  endedReason?: string;
  /** Transfer legs the call had. */
  legs: number;
}

/** The signal name provider events reach a call's workflow under. */
export const CALL_EVENT_SIGNAL = 'callEvent';

/** The signal asking `call:<callId>` to read its state from the provider now (callbacks may have been lost). */
export const CALL_RECHECK_SIGNAL = 'recheckProvider';

/** A verified provider status callback as the api signals it to `call:<callId>` (the provider's CallEvent with its timestamp in
 * ISO 8601, as a signal carries it, and without the caller id, which the workflow has). */
export type SignalledCallEvent = Omit<CallEvent, 'timestamp' | 'from'> & { timestamp: string };
