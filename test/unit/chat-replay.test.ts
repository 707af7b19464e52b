import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chatPaths } from '../../scripts/chat-fixture-paths';
import { repoRoot, testEnv } from '../helpers/env';

interface Fixture {
  workflowId: string;
  history: Record<string, unknown>;
}

// Histories of real chatSession runs, one per path (scripts/record-chat-fixtures.ts). Every one must keep replaying
// with the current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const fixtures = path.join(repoRoot, 'test', 'fixtures');
const recorded = ['conversation', 'model-activities', 'idle', 'resumed', 'continue-as-new'];
// Recorded again (--tag v2) once the chat-reply-first patch came (a turn's write after its reply, one idle timer).
const recordedAgain = recorded.map((p) => `${p}-v2`);
// Recorded once automation nodes ran (the chat-automation patch).
const recordedLater = ['automation'];
// Recorded again (--tag v3) once writes waited for a pause in the conversation (the chat-write-after-pause patch).
const recordedThird = [...recorded, ...recordedLater].map((p) => `${p}-v3`);
const recordedWithPauses = ['paused-writes'];
const files = readdirSync(fixtures).filter((f) => /^chat-history-.*\.json$/.test(f)).sort();
const load = (file: string) => JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as Fixture;
const history = (f: Fixture) => temporal.api.history.v1.History.fromObject(f.history);
const replay = (f: Fixture, h: temporal.api.history.v1.IHistory) =>
  Worker.runReplayHistory({ workflowBundle: { codePath: testEnv('bundlePath') } }, h, f.workflowId);

beforeAll(() => {
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('ERROR') });
});

describe('chatSession replay', () => {
  it('has a fixture for every recorded path', () => {
    expect(files).toEqual(expect.arrayContaining([...recorded, ...recordedAgain, ...recordedLater, ...recordedThird, ...recordedWithPauses].map((p) => `chat-history-${p}.json`)));
  });

  it('records every path the recorder knows', () => {
    expect(Object.keys(chatPaths).sort()).toEqual([...recorded, ...recordedLater, ...recordedWithPauses].sort());
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = load(file);
    const h = history(f);
    expect(h.events!.length).toBeGreaterThan(10);
    await expect(replay(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    // The same conversation with the model behind activities: its ai_reply turn now schedules chatModelReply where
    // the history holds the chatSaveTurn marker.
    const f = load('chat-history-conversation.json');
    const h = history(f);
    const payload = h.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    const input = JSON.parse(Buffer.from(payload.data!).toString('utf8'));
    expect(input.model).toBe('scripted');
    payload.data = Buffer.from(JSON.stringify({ ...input, model: 'openai' }));
    await expect(replay(f, h)).rejects.toThrow(/[Nn]ondetermin/);
  });

  it('detects a patched history the code would not produce (the check is live)', async () => {
    // A write batch's activity renamed: the patched code schedules chatSaveTurn there.
    const f = load('chat-history-conversation-v2.json');
    const h = history(f);
    const scheduled = h.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'chatSaveTurn')!;
    scheduled.activityTaskScheduledEventAttributes!.activityType!.name = 'chatModelReply';
    await expect(replay(f, h)).rejects.toThrow(/[Nn]ondetermin/);
  });
});
