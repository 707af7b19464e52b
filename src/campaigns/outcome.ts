// What a campaign makes of a call's end: the lead's outcome, and whether it is called again. Pure: the run uses it.
import type { LeadOutcome, SkipReason } from './types';

/** Outcomes called again when the campaign has retries but no retry_on (as the journey call step). */
const DEFAULT_RETRY_ON: readonly string[] = ['no_answer', 'busy'];

/**
 * The lead's outcome from its call's: a call the admission refused for the do-not-call list is a skip (counted as
 * such), never re-judged here; every other outcome is the call's.
 */
export function leadOutcomeOf(callOutcome: string, endedReason: string | undefined): { outcome: LeadOutcome; reason: SkipReason | null } {
  if (callOutcome === 'failed' && endedReason === 'do_not_call') return { outcome: 'skipped', reason: 'do_not_call' };
  return { outcome: callOutcome as LeadOutcome, reason: null };
}

/** True when the lead is called again: retries remain (attempts counts the calls made) and the outcome is one to retry on. */
export function callsAgain(outcome: LeadOutcome, attempts: number, retries: { attempts: number } | undefined, retryOn: readonly string[] | undefined): boolean {
  if (!retries || attempts > retries.attempts) return false;
  return (retryOn ?? DEFAULT_RETRY_ON).includes(outcome);
}
