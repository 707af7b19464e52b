/**
 * The telephony provider interface (one interface, vendors implement it): the outboundCall workflow's activities
 * place and cancel calls through it, and the api turns each verified status callback into a CallEvent.
 */

/** Lifecycle statuses of a call or a transfer leg, as the provider reports them. */
export const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Statuses after which a call never changes again (a `completed` never goes back to `ringing`). */
export const TERMINAL_STATUSES: ReadonlySet<CallStatus> = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

/** Who or what picked up, from answering-machine detection (Twilio's `AnsweredBy` values). */
export const ANSWERED_BY = ['human', 'machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other', 'fax', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/** Answering-machine detection mode: off, answer as soon as identified, or wait for the greeting's end (voicemail). */
export type MachineDetection = 'off' | 'Enable' | 'DetectMessageEnd';

/** What the workflow asks the provider to dial. Phones are E.164 (`+17145550001`). */
export interface PlaceCallRequest {
  /** Our call id (a UUID): the idempotency key, so a retried placement never rings twice. */
  callId: string;
  to: string;
  from: string;
  /** Where the provider connects the answered call: the voice-agent runtime (TwiML/stream URL). */
  voiceAgentUrl: string;
  /**
   * Where the provider posts the call's (and its transfer legs') status callbacks. Put our call id in its query
   * (`…?call_id=<uuid>`): the signature covers the query, and Twilio echoes nothing of ours in the body.
   */
  statusCallbackUrl: string;
  machineDetection: MachineDetection;
  /** The agent's transfer number, handed to the voice agent (as `transfer_to` on voiceAgentUrl) for transfer legs. */
  transferTo?: string;
}

/** The provider's handle on a placed call. */
export interface PlacedCall {
  providerCallId: string;
}

/**
 * One status callback, normalised. Transfer legs are calls of their own whose parentCallSid is the call's sid.
 * Callbacks may arrive twice or out of order: (callSid, status) identifies a duplicate and sequence orders one call's
 * events; consumers must never move a call out of a terminal status.
 */
export interface CallEvent {
  callSid: string;
  /** Set on a transfer leg: the sid of the call it was dialled from. */
  parentCallSid: string | null;
  status: CallStatus;
  answeredBy: AnsweredBy | null;
  /** Dial-status style outcome on terminal events (Completed, BUSY, NOANSWER, CANCEL, CONGESTION, CHANUNAVAIL). */
  disposition: string | null;
  /** The provider's order of this call's events, from 0. */
  sequence: number;
  /** When the provider fired the event. */
  timestamp: Date;
  /** Seconds of conversation, on the completed event. */
  durationSeconds: number | null;
  from: string;
  to: string;
  transcript: string | null;
  recordingUrl: string | null;
}

/** A call or transfer leg as the provider reports it when asked (Twilio's Call resource), not from a callback. */
export interface ProviderCall {
  sid: string;
  parentCallSid: string | null;
  status: CallStatus;
  answeredBy: AnsweredBy | null;
  /** Seconds of conversation, once ended. */
  durationSeconds: number | null;
  from: string;
  to: string;
  /** When the provider created it (ISO 8601). */
  createdAt: string;
  /** When it ended (ISO 8601), once ended. */
  endedAt: string | null;
}

/** Which calls to list: a call's transfer legs, or the calls to one number from another (newest first). */
export type CallListFilter = { parentCallSid: string } | { to: string; from: string };

/** A vendor that can place and stop outbound calls. */
export interface TelephonyProvider {
  /** Provider name for logs and metrics ("twilio"). */
  readonly name: string;
  /**
   * True when the provider itself drops a repeated placement with the same callId (the simulator). When false
   * (Twilio: its Calls API has no idempotency key), the caller must record the providerCallId durably and check for
   * it before placing again; retries of placeCall are only safe after a failure the provider reports as not placed.
   */
  readonly idempotentPlacement: boolean;
  /** Places an outbound call; throws TelephonyError (retryable or not). */
  placeCall(request: PlaceCallRequest): Promise<PlacedCall>;
  /** Stops a call that has not been answered yet (queued or ringing); an answered call is left as it is. */
  cancelCall(providerCallId: string): Promise<void>;
  /** Hangs up a call whatever its state (an answered call ends as completed). */
  hangUpCall(providerCallId: string): Promise<void>;
  /** Reads a call as the provider knows it now (whatever callbacks were lost). */
  fetchCall(providerCallId: string): Promise<ProviderCall>;
  /** Lists calls: a call's child calls (transfer legs), or recent calls between two numbers, newest first. */
  listCalls(filter: CallListFilter): Promise<ProviderCall[]>;
}
