import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { killWorkerProcesses, outputMatch, spawnOnApp, startWorkerProcess } from '../helpers/worker-process';

jest.setTimeout(180_000);

let app: TestApp;
let fake: VendorFake;
let held: ChildProcess | undefined;

beforeAll(async () => {
  app = await startTestApp(); // no workers here: the held api's in-process worker is the only one, until it dies
  fake = await startVendorFake();
});
afterAll(async () => {
  held?.kill('SIGKILL');
  killWorkerProcesses();
  await fake?.stop();
  await app?.close();
});

/** Starts test/helpers/held-automation-api.ts on the app's task queues; resolves its url and a promise of its "held" line. */
async function startHeldApi(): Promise<{ url: string; holding: Promise<void> }> {
  held = spawnOnApp(app, path.join('test', 'helpers', 'held-automation-api.ts'));
  const url = outputMatch(held, 'held api listening', (out) => /listening (\S+)/.exec(out)?.[1]);
  const holding = outputMatch(held, 'held api holding', (out) => (out.includes('held\n') ? true : undefined), 0).then(() => undefined);
  holding.catch(() => undefined); // awaited by the test once its request is in
  return { url: await url, holding };
}

describe("a synchronous run on the api's in-process worker", () => {
  it('answers once its outcome is recorded; the process killed after the answer leaves the run final and sends nothing twice', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    fake.on('POST', '/once', { status: 201, body: { id: 'v1' } });
    const api = await startHeldApi();
    const res = await fetch(`${api.url}/api/automation/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-key': ws.superuserKey },
      body: JSON.stringify({ automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/once`, requestBodyJson: { n: 1 } } } }),
    });
    const body = (await res.json()) as { requestId: string; metadata: { workflowId: string } };
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      data: { status: 201, body: { id: 'v1' } },
      metadata: { runAttempts: 1, workflowId: `automation:${body.requestId}` },
    });
    await api.holding;

    // Answered from the recorded outcome while the activity is held: the workflow has not ended; the run is final.
    const handle = app.temporal.client.workflow.getHandle(body.metadata.workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    const stored = async () => (await app.request('GET', `/api/automation/runs/${body.requestId}`, { headers: { 'x-key': ws.superuserKey } })).body;
    expect(await stored()).toMatchObject({ status: 'succeeded', success: true, runAttempts: 1, data: { status: 201 } });

    held!.kill('SIGKILL');
    await new Promise((r) => held!.once('exit', r));
    await startWorkerProcess(app);
    // The next worker's try finds the run ended: the workflow ends with the recorded outcome; the vendor saw one request.
    await expect(handle.result()).resolves.toMatchObject({ success: true, runAttempts: 1, data: { status: 201 } });
    expect(fake.received('POST', '/once')).toHaveLength(1);
    expect(await stored()).toMatchObject({ status: 'succeeded', runAttempts: 1 });
    const outcome = (await handle.describe()).typedSearchAttributes.getAll().find((p) => p.key.name === 'Outcome')?.value;
    expect(outcome).toBe('succeeded');
  });
});
