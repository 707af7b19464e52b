import { TERMINAL_STATUSES, type CallEvent, type CallStatus } from './provider';

/** What a consumer last applied for one call sid. */
export interface AppliedState {
  status: CallStatus;
  sequence: number;
}

/**
 * Whether an event moves a call forward: not a duplicate or a late arrival (sequence at or below the last applied),
 * and never out of a terminal status (a `completed` never goes back to `ringing`).
 */
export function advances(current: AppliedState | null, event: Pick<CallEvent, 'status' | 'sequence'>): boolean {
  if (!current) return true;
  if (TERMINAL_STATUSES.has(current.status)) return false;
  return event.sequence > current.sequence;
}
