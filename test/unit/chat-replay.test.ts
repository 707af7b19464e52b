import { chatPaths } from '../../scripts/chat-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real chatSession runs, one per path (scripts/record-chat-fixtures.ts). Every one must keep replaying
// with the current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const recorded = ['conversation', 'model-activities', 'idle', 'resumed', 'continue-as-new'];
// Recorded again (--tag v2) once the chat-reply-first patch came (a turn's write after its reply, one idle timer).
const recordedAgain = recorded.map((p) => `${p}-v2`);
// Recorded once automation nodes ran (the chat-automation patch).
const recordedLater = ['automation'];
// Recorded again (--tag v3) once writes waited for a pause in the conversation (the chat-write-after-pause patch).
const recordedThird = [...recorded, ...recordedLater].map((p) => `${p}-v3`);
const recordedWithPauses = ['paused-writes'];
// After chat-scripted-facts: conversation-v4 and automation-v5 (the paths with a scripted ai_reply); automation-v4: after chat-lead-bound.
const recordedFourth = ['conversation-v4', 'automation-v4', 'automation-v5'];
// After run-search-attributes (the automation child carries FlowId and LeadId): automation-attrs.
const recordedAttrs = ['automation-attrs'];
const files = fixtureFiles('chat');

describe('chatSession replay', () => {
  it('has a fixture for every recorded path', () => {
    expect(files).toEqual(
      expect.arrayContaining(
        [...recorded, ...recordedAgain, ...recordedLater, ...recordedThird, ...recordedWithPauses, ...recordedFourth, ...recordedAttrs].map(
          (p) => `chat-history-${p}.json`,
        ),
      ),
    );
  });

  it('records every path the recorder knows', () => {
    expect(Object.keys(chatPaths).sort()).toEqual([...recorded, ...recordedLater, ...recordedWithPauses].sort());
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.length).toBeGreaterThan(10);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    // The same conversation with the model behind activities: its ai_reply turn now schedules chatModelReply where
    // the history holds the chatSaveTurn marker.
    const f = loadFixture('chat-history-conversation.json');
    const h = historyOf(f);
    const payload = h.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    const input = JSON.parse(Buffer.from(payload.data!).toString('utf8'));
    expect(input.model).toBe('scripted');
    payload.data = Buffer.from(JSON.stringify({ ...input, model: 'openai' }));
    await expect(replayHistory(f, h)).rejects.toThrow(/[Nn]ondetermin/);
  });

  it('detects a patched history the code would not produce (the check is live)', async () => {
    // A write batch's activity renamed: the patched code schedules chatSaveTurn there.
    await expect(replayWithActivityRenamed('chat-history-conversation-v2.json', 'chatSaveTurn', 'chatModelReply')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
