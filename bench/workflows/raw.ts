// Trivial workflows for the raw Temporal baseline (bench/temporal-raw.ts). Workflow code: no Node built-ins.
import { proxyActivities } from '@temporalio/workflow';

/** The activities these workflows call; each is a no-op. */
export interface RawActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<RawActivities>({ startToCloseTimeout: '30 seconds' });

/** Returns at once: measures a bare start. */
export async function rawEmpty(): Promise<void> {}

/** One no-op activity. */
export async function rawOneActivity(): Promise<void> {
  await noop();
}

/** Three no-op activities in sequence. */
export async function rawThreeActivities(): Promise<void> {
  await noop();
  await noop();
  await noop();
}
