import { chatPaths } from '../../scripts/chat-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real chatSession runs, one per path (scripts/record-chat-fixtures.ts). Every one must keep replaying
// with the current workflow code: a change that breaks one needs patched() and a new recording (--tag). The patches of
// chatSession are deprecated (docs/workflow-versioning.md), so the histories recorded before any of them are gone;
// each path keeps its newest recording: v3 (after chat-write-after-pause; these paths reach no later patch), attrs
// (after run-search-attributes), paused-writes, all with the patches live (patched() markers, as the runs of the
// release before carry them), and conversation-v6, recorded once the patches were deprecated.
const fixtureOf: Record<string, string> = {
  conversation: 'conversation-v6',
  automation: 'automation-attrs',
  'model-activities': 'model-activities-v3',
  idle: 'idle-v3',
  resumed: 'resumed-v3',
  'paused-writes': 'paused-writes',
  'continue-as-new': 'continue-as-new-v3',
};
const files = fixtureFiles('chat');

describe('chatSession replay', () => {
  it('has a fixture for every path the recorder knows, and no other', () => {
    expect(Object.keys(fixtureOf).sort()).toEqual(Object.keys(chatPaths).sort());
    expect(files).toEqual(
      Object.values(fixtureOf)
        .map((p) => `chat-history-${p}.json`)
        .sort(),
    );
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.length).toBeGreaterThan(10);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    // The same conversation with the model behind activities: its ai_reply turn now schedules chatModelReply where
    // the history holds none.
    const f = loadFixture('chat-history-conversation-v6.json');
    const h = historyOf(f);
    const payload = h.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    const input = JSON.parse(Buffer.from(payload.data!).toString('utf8'));
    expect(input.model).toBe('scripted');
    payload.data = Buffer.from(JSON.stringify({ ...input, model: 'openai' }));
    await expect(replayHistory(f, h)).rejects.toThrow(/[Nn]ondetermin/);
  });

  it('detects a patched history the code would not produce (the check is live)', async () => {
    // A write batch's activity renamed: the code schedules chatSaveTurn there.
    await expect(replayWithActivityRenamed('chat-history-idle-v3.json', 'chatSaveTurn', 'chatModelReply')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
