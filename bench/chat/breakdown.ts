// Where a turn's milliseconds go, from the workflow's own history: each Update's workflow task (scheduled, started,
// completed) against the client's send and reply times.
import type { temporal } from '@temporalio/proto';
import { median } from '../lib';

/** A timed turn: when the client sent it and when the reply came (epoch ms, sub-ms precision). */
export interface TurnTimes {
  sent: number;
  replied: number;
}

/** Median milliseconds of each segment of a turn. */
export interface Breakdown {
  /** client send → the server scheduled the workflow task (client, api, gRPC, Update admission) */
  toServer: number;
  /** scheduled → a worker took it */
  toWorker: number;
  /** the worker's time: activations, local activity, completion */
  worker: number;
  /** completed → the client had the reply (history write, Update result, api, frames) */
  back: number;
}

const ms = (t: temporal.api.history.v1.IHistoryEvent['eventTime']) => Number(t!.seconds) * 1000 + (t!.nanos ?? 0) / 1e6;

/** Pairs the last turns.length accepted Updates of a history (their workflow tasks) with the timed turns, in order. */
export function breakdown(events: temporal.api.history.v1.IHistoryEvent[], turns: TurnTimes[]): Breakdown {
  // Each accepted Update, with the workflow task that accepted it (the nearest scheduled/started/completed before it).
  const tasks: { scheduled: number; started: number; completed: number }[] = [];
  const last: Record<'scheduled' | 'started' | 'completed', number> = { scheduled: NaN, started: NaN, completed: NaN };
  for (const e of events) {
    if (e.workflowTaskScheduledEventAttributes) last.scheduled = ms(e.eventTime);
    if (e.workflowTaskStartedEventAttributes) last.started = ms(e.eventTime);
    if (e.workflowTaskCompletedEventAttributes) last.completed = ms(e.eventTime);
    if (e.workflowExecutionUpdateAcceptedEventAttributes) tasks.push({ ...last });
  }
  const paired = tasks.slice(-turns.length).map((t, i) => ({ t, turn: turns[turns.length - Math.min(tasks.length, turns.length) + i]! }));
  return {
    toServer: median(paired.map(({ t, turn }) => t.scheduled - turn.sent)),
    toWorker: median(paired.map(({ t }) => t.started - t.scheduled)),
    worker: median(paired.map(({ t }) => t.completed - t.started)),
    back: median(paired.map(({ t, turn }) => turn.replied - t.completed)),
  };
}
