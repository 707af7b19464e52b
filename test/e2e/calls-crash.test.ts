import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { killWorkerProcesses, startWorkerProcess } from '../helpers/worker-process';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(240_000);

let app: TestApp;

beforeAll(async () => {
  // No in-process workers: the worker runs as a child process we can kill. Speed 1: calls last ~8 s.
  app = await startTestApp({ simulator: { speed: 1 } });
});
afterAll(async () => {
  killWorkerProcesses();
  await app.close();
});

/** The worker process, calling through the app's simulator. */
const startWorker = () => startWorkerProcess(app, { TELEPHONY_BASE_URL: app.simulator!.url, TELEPHONY_CALLBACK_BASE_URL: app.url });

describe('a worker killed with SIGKILL in the middle of calls', () => {
  it('finishes every call after a restart, each placed exactly once', async () => {
    const ws = await callingWorkspace(app);
    const worker = await startWorker();
    const rules = ['0001', '0005', '0006', '0002', '4321'];
    const placed = await Promise.all(
      rules.map(
        async (last4) =>
          (await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding(last4) } })).body.call_id as string,
      ),
    );
    const entries = (id: string) => app.simulator!.ledger.entries.filter((e) => e.callId === id);
    // Every call is dialled and none has ended yet: the worker dies mid-call.
    await eventually(async () => placed.every((id) => entries(id).length === 1), 60_000, 'every call to be placed');
    // Killed only once each provider sid is on record: a kill between the provider's accept and that write would
    // make the retry send the create again (the simulator folds it by X-Switchboard-Call-Id; real Twilio would not).
    await eventually(
      async () => (await app.db.query('SELECT 1 FROM calls WHERE id = ANY($1) AND provider_sid IS NOT NULL', [placed])).length === placed.length,
      60_000,
      'every provider sid recorded',
    );
    expect(placed.filter((id) => entries(id)[0]!.status === 'completed')).toEqual([]);
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));

    await startWorker();
    const results = await Promise.all(placed.map((id) => callResult(app, id)));
    expect(results.map((r) => r.outcome)).toEqual(['human', 'transferred', 'transferred', 'voicemail', 'human']);
    expect(results.map((r) => r.legs)).toEqual([0, 1, 2, 0, 0]);
    for (const id of placed) expect(entries(id)).toEqual([expect.objectContaining({ repeatedCreates: 0 })]);
    const rows = await app.db.query<{ id: string }>('SELECT id FROM calls WHERE workspace_id = $1 ORDER BY id', [ws.workspaceId]);
    expect(rows).toHaveLength(placed.length + 3);
    // Every slot taken before the kill was given back exactly once by the restarted runs.
    expect(await app.db.query('SELECT id FROM calls WHERE workspace_id = $1 AND slot_taken_at IS NOT NULL', [ws.workspaceId])).toEqual([]);
    expect(await app.db.query('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [ws.workspaceId])).toEqual([{ used: 0 }]);
  });
});
