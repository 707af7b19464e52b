import { startTestApp, type TestApp } from '../helpers/stack';
import { killWorkerProcesses, startWorkerProcess } from '../helpers/worker-process';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
let fake: VendorFake;

beforeAll(async () => {
  app = await startTestApp(); // no in-process workers: the worker runs as a child process we can kill
  fake = await startVendorFake();
});
afterAll(async () => {
  killWorkerProcesses();
  await fake.stop();
  await app.close();
});

describe('a worker killed with SIGKILL in the middle of automation runs', () => {
  it('never sends a run of an action that is not idempotent twice (outcome_unknown), and retries an idempotent one', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    const held: Array<() => void> = [];
    // The first request on each path is held (the worker dies waiting for it); a second one would be answered.
    const hold = (path: string) =>
      fake.on('POST', path, () => new Promise((resolve) => held.push(() => resolve({ status: 200, body: { late: true } }))), {
        status: 200,
        body: { again: true },
      });
    hold('/post-sync');
    hold('/post-async');
    fake.on('PUT', '/put', () => new Promise((resolve) => held.push(() => resolve({ status: 200, body: { late: true } }))), {
      status: 200,
      body: { put: true },
    });
    fake.on('POST', '/cb', { status: 200, body: {} });
    const proxy = (apiMethod: string, path: string) => ({
      automationType: 'proxy',
      nodeParams: { params: { apiMethod, apiURL: `${fake.url}${path}`, requestBodyJson: { n: 1 } } },
    });
    const run = (body: object) => app.request('POST', '/api/automation/execute', { headers: { 'x-key': ws.superuserKey }, body });

    const first = await startWorkerProcess(app);
    const postSync = run(proxy('POST', '/post-sync'));
    const postAsync = await run({ ...proxy('POST', '/post-async'), async: true, callbackUrl: `${fake.url}/cb` });
    const put = run(proxy('PUT', '/put'));
    await eventually(async () => held.length === 3, 60_000, 'the three vendor requests');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    for (const release of held) release();
    await startWorkerProcess(app);

    const sync = await postSync;
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({
      success: false,
      data: null,
      error: expect.stringMatching(/^outcome unknown: .*not sent again/),
      metadata: { errorType: 'outcome_unknown', runAttempts: 2 },
    });
    const stored = async (requestId: string) => (await app.request('GET', `/api/automation/runs/${requestId}`, { headers: { 'x-key': ws.superuserKey } })).body;
    expect(await stored(sync.body.requestId)).toMatchObject({ status: 'failed', errorType: 'outcome_unknown', runAttempts: 2 });
    const asyncRun = await eventually(
      async () => {
        const r = await stored(postAsync.body.requestId);
        return r.status !== 'running' && r;
      },
      60_000,
      'the async run to end',
    );
    expect(asyncRun).toMatchObject({ status: 'failed', errorType: 'outcome_unknown' });

    const repeated = await put;
    expect(repeated.body).toMatchObject({ success: true, data: { body: { put: true } }, metadata: { runAttempts: 2, attempts: 1 } });
    expect(fake.received('PUT', '/put')).toHaveLength(2);
    expect(fake.received('POST', '/post-sync')).toHaveLength(1);
    expect(fake.received('POST', '/post-async')).toHaveLength(1);
  });
});
