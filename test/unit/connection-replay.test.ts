import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real deliverConnectionEvent and refreshExpiringConnections runs (scripts/record-connection-fixtures.ts).
// Every one must keep replaying with the current workflow code: a change that breaks one needs patched() and a new
// recording (--tag).
const files = fixtureFiles('connection');
const typeOf = (file: string) => historyOf(loadFixture(file)).events![0]!.workflowExecutionStartedEventAttributes!.workflowType!.name;

describe('connection workflows replay', () => {
  it('has a fixture for every recorded path, of both connection workflow types', () => {
    expect(files).toEqual(expect.arrayContaining(['connection-history-event-delivered.json', 'connection-history-refresh.json']));
    expect(new Set(files.map(typeOf))).toEqual(new Set(['deliverConnectionEvent', 'refreshExpiringConnections']));
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    await expect(replayHistory(loadFixture(file))).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('connection-history-refresh.json', 'connectionsDueForRefresh', 'refreshConnection')).rejects.toThrow(
      /[Nn]ondetermin/,
    );
    await expect(replayWithActivityRenamed('connection-history-event-delivered.json', 'publishConnectionEvent', 'refreshConnection')).rejects.toThrow(
      /[Nn]ondetermin/,
    );
  });
});
