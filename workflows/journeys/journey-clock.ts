// The time a journey run goes by: the workflow's own (real runs), or a virtual one a preview advances without waiting.
import { sleep } from '@temporalio/workflow';

/** Now and waiting, as a journey step sees them. */
export interface JourneyClock {
  /** A preview run: waits take no time and nothing is done outside the run. */
  readonly preview: boolean;
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Workflow time and durable timers (every real run). */
export const workflowClock: JourneyClock = { preview: false, now: () => Date.now(), sleep: (ms) => sleep(ms) };

/** A clock starting at startMs that a wait advances at once (no timer, no history event). */
export function virtualClock(startMs: number): JourneyClock {
  let t = startMs;
  return {
    preview: true,
    now: () => t,
    sleep: async (ms) => {
      t += Math.max(0, ms);
    },
  };
}
