import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, testEnv } from '../helpers/env';

// Recorded from a real run (journeys-run.test.ts with RECORD_JOURNEY_FIXTURE=1): every step kind, a wait, a webhook, branches.
const fixture = JSON.parse(readFileSync(path.join(repoRoot, 'test', 'fixtures', 'journey-history.json'), 'utf8')) as {
  workflowId: string;
  history: Record<string, unknown>;
};
const history = () => temporal.api.history.v1.History.fromObject(fixture.history);
const replay = (h: temporal.api.history.v1.IHistory) =>
  Worker.runReplayHistory({ workflowBundle: { codePath: testEnv('bundlePath') } }, h, fixture.workflowId);

beforeAll(() => {
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('ERROR') });
});

describe('journeyEnrollment replay', () => {
  it('replays the recorded history deterministically with the current workflow code', async () => {
    const h = history();
    expect(h.events!.length).toBeGreaterThan(30);
    await expect(replay(h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    const h = history();
    const scheduled = h.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'journeyTag')!;
    scheduled.activityTaskScheduledEventAttributes!.activityType!.name = 'journeyWebhook';
    await expect(replay(h)).rejects.toThrow(/[Nn]ondetermin/);
  });
});
