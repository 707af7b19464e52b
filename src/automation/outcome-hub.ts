import type { AutomationOutcome } from './types';

type Waiter = (outcome: AutomationOutcome) => void;

/**
 * Hands a synchronous run's outcome from the run activity to the api request waiting for it, when both are in this
 * process (the api's in-process automations worker): the request answers once the outcome is recorded in Postgres,
 * without waiting for the workflow task to complete and the result to come back through the server. Process-wide:
 * the api and its in-process worker share the process, not a dependency graph; elsewhere nothing waits.
 * Kept beside the workflow's result (which the request also awaits, and which alone answers when the run's activity
 * ran on another worker) because it is what P4 (eager automation endpoint, <= 30 ms p50) was measured with; taking
 * the result from Temporal alone (the workflow result, or an Update the run answers once the outcome is recorded)
 * replaces it only once `npm run bench -- automation` shows P4 still met without it.
 */
class AutomationOutcomeHub {
  private readonly waiters = new Map<string, Waiter>();

  /** Waits for the run's recorded outcome; the returned cancel stops waiting (the result came another way). */
  wait(requestId: string): { outcome: Promise<AutomationOutcome>; cancel: () => void } {
    let cancel = () => {};
    const outcome = new Promise<AutomationOutcome>((resolve) => {
      this.waiters.set(requestId, resolve);
      cancel = () => this.waiters.delete(requestId);
    });
    return { outcome, cancel };
  }

  /** Called by the run activity once the outcome is recorded: the waiting request (if any, here) answers with it. */
  recorded(requestId: string, outcome: AutomationOutcome): void {
    const waiter = this.waiters.get(requestId);
    if (!waiter) return;
    this.waiters.delete(requestId);
    waiter(outcome);
  }

  /** Requests waiting now (tests check nothing is left behind). */
  get size(): number {
    return this.waiters.size;
  }
}

/** The process's hub. */
export const automationOutcomes = new AutomationOutcomeHub();
