// Trivial workflows for the raw Temporal baseline (bench/temporal-raw.ts). Workflow code: no Node built-ins.
import { condition, defineUpdate, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';

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

const local = proxyLocalActivities<RawActivities>({ startToCloseTimeout: '30 seconds' });

/** The raw chat turn: an Update that runs one local activity and returns. */
export const rawTurnUpdate = defineUpdate<string, [string]>('rawTurn');

/** Takes rawTurn Updates until `turns` of them were answered (the baseline of one chat turn). */
export async function rawChat(turns: number): Promise<void> {
  let answered = 0;
  setHandler(rawTurnUpdate, async (text) => {
    await local.noop();
    answered++;
    return text;
  });
  await condition(() => answered >= turns);
}
