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

describe('a worker killed with SIGKILL in the middle of an automation run', () => {
  it('finishes the run on the next worker, and the run says why the vendor saw the request twice', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    let releaseFirst: (() => void) | undefined;
    fake.on(
      'POST',
      '/slow',
      // The first request is held (the worker dies waiting for it); the retry is answered.
      () => new Promise((resolve) => (releaseFirst = () => resolve({ status: 200, body: { late: true } }))),
      { status: 200, body: { ok: true } },
    );
    const first = await startWorkerProcess(app);
    const answer = app.request('POST', '/api/automation/execute', {
      headers: { 'x-key': ws.superuserKey },
      body: { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/slow`, requestBodyJson: { n: 1 } } } },
    });
    await eventually(async () => fake.received('POST', '/slow').length === 1, 60_000, 'the first vendor request');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    releaseFirst?.();
    await startWorkerProcess(app);

    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { body: { ok: true } }, metadata: { runAttempts: 2, attempts: 1 } });
    expect(fake.received('POST', '/slow')).toHaveLength(2);
    const stored = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': ws.superuserKey } });
    expect(stored.body).toMatchObject({ status: 'succeeded', runAttempts: 2 });
  });
});
