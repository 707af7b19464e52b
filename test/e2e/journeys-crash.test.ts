import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { testEnv, repoRoot } from '../helpers/env';
import { enrollmentRows, finished, importSteps, leadRow, newPhone, rowsWhen, stateOf } from '../helpers/journeys';
import { freePort } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  app = await startTestApp(); // no in-process workers: the worker runs as a child process we can kill
  hooks = await receiver.start();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await receiver.close();
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

describe('a worker killed with SIGKILL in the middle of journeys', () => {
  it('resumes after a restart and does every step exactly once', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey })).body.webhook_secret;
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'first_tag', kind: 'tag', tag: 'one' },
      { id: 'first_hook', kind: 'webhook', url: `${hooks}/crash/first` },
      { id: 'nap', kind: 'wait', duration: 'PT6S' }, // long enough that every lead is asleep before the kill
      { id: 'second_tag', kind: 'tag', tag: 'two' },
      { id: 'second_hook', kind: 'webhook', url: `${hooks}/crash/second` },
      { id: 'stop', kind: 'end' },
    ]);
    let worker = await startWorker();
    const leads: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, record: { phone: newPhone() } } });
      expect(res.status).toBe(200);
      leads.push(res.body.lead_id);
    }
    for (const lead of leads) await rowsWhen(app, lead, (rows) => rows[0]?.current_step === 'nap', 'every lead asleep in the wait');

    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    expect(worker.signalCode).toBe('SIGKILL');
    // Timers keep running on the server while no worker is alive; nothing moves until one is back.
    await new Promise((r) => setTimeout(r, 6500));
    expect(receiver.on('/crash/second')).toHaveLength(0);

    worker = await startWorker();
    for (const lead of leads) {
      const end = await finished(app, journey.id, lead);
      expect(end.status).toBe('completed');
      expect(end.history.map((h) => `${h.seq}:${h.step_id}:${h.outcome}`)).toEqual([
        '1:first_tag:done',
        '2:first_hook:delivered',
        '3:nap:done',
        '4:second_tag:done',
        '5:second_hook:delivered',
        '6:stop:done',
      ]);
      expect((await leadRow(app, ws.workspaceId, lead)).tags).toEqual(['one', 'two']);
      expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'completed', current_step: 'stop' }]);
    }
    const deliveries = [...receiver.on('/crash/first'), ...receiver.on('/crash/second')];
    expect(deliveries.every((d) => d.verified)).toBe(true);
    const events = new Set(deliveries.map((d) => d.eventId));
    expect(events.size).toBe(leads.length * 2);
    expect(receiver.processed.filter((id) => events.has(id))).toHaveLength(leads.length * 2);
    // Killed while asleep, no delivery was in flight: not even a duplicate for the receiver to drop.
    expect(deliveries).toHaveLength(leads.length * 2);
    await eventually(async () => (await stateOf(app, journey.id, leads[0]!)).status === 'completed');
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});
