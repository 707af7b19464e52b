import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot, testEnv } from '../helpers/env';
import { freePort } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
let fake: VendorFake;
const children: ChildProcess[] = [];

beforeAll(async () => {
  app = await startTestApp(); // no in-process workers: the worker runs as a child process we can kill
  fake = await startVendorFake();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fake.stop();
  await app.close();
});

/** Starts worker/main.ts as its own process on the app's task queues; resolves once it polls. */
async function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join('worker', 'main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: app.config.DATABASE_URL,
      TEMPORAL_ADDRESS: app.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE_PREFIX: app.config.TEMPORAL_TASK_QUEUE_PREFIX,
      WORKER_METRICS_PORT: String(await freePort()),
      WORKER_BUNDLE_PATH: testEnv('bundlePath'),
      SSRF_ALLOWLIST: '127.0.0.1/8',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker polling')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling:\n${out.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`worker not polling after 60 s:\n${out.slice(-2000)}`)), 60_000).unref();
  });
  return child;
}

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
    const first = await startWorker();
    const answer = app.request('POST', '/api/automation/execute', {
      headers: { 'x-key': ws.superuserKey },
      body: { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/slow`, requestBodyJson: { n: 1 } } } },
    });
    await eventually(async () => fake.received('POST', '/slow').length === 1, 60_000, 'the first vendor request');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    releaseFirst?.();
    await startWorker();

    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { body: { ok: true } }, metadata: { runAttempts: 2, attempts: 1 } });
    expect(fake.received('POST', '/slow')).toHaveLength(2);
    const stored = await app.request('GET', `/api/automation/runs/${res.body.requestId}`, { headers: { 'x-key': ws.superuserKey } });
    expect(stored.body).toMatchObject({ status: 'succeeded', runAttempts: 2 });
  });
});
