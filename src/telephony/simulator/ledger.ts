import type { AnsweredBy, CallStatus, MachineDetection } from '../provider';
import type { Rule } from './rules';

/** One callback the simulator posted (or tried to). */
interface SentCallback {
  callSid: string;
  status: CallStatus;
  sequence: number;
  /** The receiver's HTTP status, or null when it could not be reached. */
  responseStatus: number | null;
}

/** A call (or transfer leg) the simulator knows. */
export interface SimCall {
  sid: string;
  parentSid: string | null;
  to: string;
  from: string;
  status: CallStatus;
  answeredAt: number | null;
  createdAt: string;
  nextSequence: number;
  /** What answering-machine detection said, once answered. */
  answeredBy?: AnsweredBy | null;
  /** When it ended (ISO 8601) and how long it talked, once ended. */
  endedAt?: string | null;
  durationSeconds?: number | null;
  /** 0 for the placed call, n for its n-th transfer leg. */
  leg?: number;
  /** On the placed call: how many steps of its script have played (a restarted simulator resumes from there). */
  played?: number;
}

/** One placement request, as the ledger shows it: what was dialled, under which call id, and what happened. */
export interface LedgerEntry {
  callId: string | null;
  sid: string;
  to: string;
  from: string;
  url: string;
  statusCallback: string | null;
  machineDetection: MachineDetection;
  transferTo: string | null;
  rule: Rule;
  createdAt: string;
  status: CallStatus;
  /** Creates with the same call id after the first: answered with this call, nothing dialled. */
  repeatedCreates: number;
  legs: { sid: string; to: string; from: string; status: CallStatus }[];
  callbacks: SentCallback[];
  /** Rule 0090: the TwiML the call's Url answered on the answer (null while not fetched or unreachable). */
  twiml?: string | null;
}

/** Every call the simulator was asked to place, findable by our call id and by sid (legs too). */
export class Ledger {
  readonly entries: LedgerEntry[] = [];
  private readonly byCallId = new Map<string, LedgerEntry>();
  private readonly bySid = new Map<string, { entry: LedgerEntry; call: SimCall }>();

  /** The entry a call id placed, if any. */
  forCallId(callId: string): LedgerEntry | undefined {
    return this.byCallId.get(callId);
  }

  /** Every call and leg the simulator knows, in creation order. */
  calls(): SimCall[] {
    return [...this.bySid.values()].map((f) => f.call);
  }

  /** A call or leg and its entry. */
  find(sid: string): { entry: LedgerEntry; call: SimCall } | undefined {
    return this.bySid.get(sid);
  }

  /** Records a new placement and its call. */
  add(entry: LedgerEntry, call: SimCall): void {
    this.entries.push(entry);
    if (entry.callId) this.byCallId.set(entry.callId, entry);
    this.bySid.set(call.sid, { entry, call });
  }

  /** Records a transfer leg of an entry's call (`known`: already listed in the entry, as when restored). */
  addLeg(entry: LedgerEntry, call: SimCall, known = false): void {
    if (!known) entry.legs.push({ sid: call.sid, to: call.to, from: call.from, status: call.status });
    this.bySid.set(call.sid, { entry, call });
  }

  /** Moves a call or leg to a status, mirrored in its entry. */
  setStatus(sid: string, status: CallStatus): void {
    const found = this.bySid.get(sid);
    if (!found) return;
    found.call.status = status;
    if (found.call.parentSid === null) found.entry.status = status;
    else found.entry.legs.find((l) => l.sid === sid)!.status = status;
  }
}
