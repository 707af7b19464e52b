// The replay tests' shared reading of recorded histories (scripts/fixture-recorder.ts writes them): each file is
// {workflowId, history}; a history replays against the test bundle of the current workflow code, without a server.
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { temporalDataConverter } from '../../src/temporal/client';
import { repoRoot, testEnv } from './env';

export interface Fixture {
  workflowId: string;
  history: Record<string, unknown>;
}

type History = temporal.api.history.v1.IHistory;

const fixtures = path.join(repoRoot, 'test', 'fixtures');

/** test/fixtures/<kind>-history*.json, sorted. */
export const fixtureFiles = (kind: string): string[] =>
  readdirSync(fixtures)
    .filter((f) => f.startsWith(`${kind}-history`) && f.endsWith('.json'))
    .sort();

/** A fixture file as written by the recorder. */
export const loadFixture = (file: string): Fixture => JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as Fixture;

/** The fixture's history as the SDK takes it (a fresh copy each call: tests may change it). */
export const historyOf = (f: Fixture): History => temporal.api.history.v1.History.fromObject(f.history);

/** Replays a history with the current workflow code; rejects with a nondeterminism error when the code would differ. */
export const replayHistory = (f: Fixture, h: History = historyOf(f)): Promise<void> =>
  Worker.runReplayHistory({ workflowBundle: { codePath: testEnv('bundlePath') }, dataConverter: temporalDataConverter(loadConfig()) }, h, f.workflowId);

/**
 * Replays the fixture with its first scheduled `from` activity renamed `to`: a history the code would not produce, so
 * a live check rejects it as nondeterministic.
 */
export function replayWithActivityRenamed(file: string, from: string, to: string): Promise<void> {
  const f = loadFixture(file);
  const h = historyOf(f);
  const scheduled = h.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === from);
  if (!scheduled) throw new Error(`${file} schedules no ${from} activity`);
  scheduled.activityTaskScheduledEventAttributes!.activityType!.name = to;
  return replayHistory(f, h);
}
