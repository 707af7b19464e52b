// Call outcomes across an outage of our side: the carrier keeps calling back while the api is down, and those
// callbacks are lost (neither Twilio nor the simulator retries them); a worker dies between the carrier accepting a
// call and the sid's write. The calls must still end as the carrier says they ended, each placed once.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callWithLegs } from '../../src/calls/db/calls';
import { startSimulator, type Simulator } from '../../src/telephony/simulator/server';
import { startCallbackGate } from '../helpers/callback-gate';
import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { freePort } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';
import { killWorkerProcesses, outputMatch, spawnOnApp, startWorkerProcess } from '../helpers/worker-process';

jest.setTimeout(300_000);

let app: TestApp;
let gate: Awaited<ReturnType<typeof startCallbackGate>>;

beforeAll(async () => {
  app = await startTestApp({ simulator: { speed: 0.5 } });
  gate = await startCallbackGate();
});
// Each case runs its own processes on the app's task queues.
afterEach(() => killWorkerProcesses());
afterAll(async () => {
  await gate?.close();
  await app?.close();
});

const exited = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));

/** The api (src/api/main.ts) as its own process on a free port, the carrier calling it back through the gate. */
async function startApiProcess(sim: Simulator) {
  const port = await freePort();
  const child = spawnOnApp(app, path.join('src', 'api', 'main.ts'), {
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    TELEPHONY_BASE_URL: sim.url,
    TELEPHONY_CALLBACK_BASE_URL: gate.url,
  });
  await outputMatch(child, 'api listening', (out) => (out.includes('api listening') ? true : undefined));
  gate.forwardTo(`http://127.0.0.1:${port}`);
  return { child, url: `http://127.0.0.1:${port}` };
}

const callbackEnv = (sim: Simulator, callbacks: string) => ({ TELEPHONY_BASE_URL: sim.url, TELEPHONY_CALLBACK_BASE_URL: callbacks });
/** What the ledger's end of a call comes to (outboundCall's rule, read off the carrier's side). */
const lifecycle = (s: string) => s.replace(/-/g, '_');

describe('the api and worker killed while calls are in flight', () => {
  it('end every call as the carrier ended it, legs included, once they are back', async () => {
    const sim = app.simulator!;
    const ws = await callingWorkspace(app);
    const api = await startApiProcess(sim);
    const worker = await startWorkerProcess(app, callbackEnv(sim, gate.url));
    const rules = ['0001', '0005', '0006', '0002', '0003'];
    const placed: string[] = [];
    for (const last4 of rules) {
      const res = await fetch(`${api.url}/v1/agent`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent: ws.agentId, phone: phoneEnding(last4) }),
      });
      expect(res.status).toBe(200);
      placed.push(((await res.json()) as { call_id: string }).call_id);
    }
    await eventually(
      async () => (await app.db.query('SELECT 1 FROM calls WHERE id = ANY($1) AND provider_sid IS NOT NULL', [placed])).length === placed.length,
      60_000,
      'every call placed',
    );
    // From here the api hears nothing more: every later callback reaches a dead api and is lost.
    gate.hold();
    api.child.kill('SIGKILL');
    worker.kill('SIGKILL');
    await Promise.all([exited(api.child), exited(worker)]);
    gate.release();
    const entries = placed.map((id) => sim.ledger.forCallId(id)!);
    for (const entry of entries) await sim.settled(entry.sid);
    expect(entries.flatMap((e) => e.callbacks.filter((c) => c.responseStatus !== 204 && c.responseStatus !== 200)).length).toBeGreaterThan(0);
    // Nothing on our side knows how they ended.
    expect(await app.db.query('SELECT id FROM calls WHERE id = ANY($1) AND outcome IS NOT NULL', [placed])).toEqual([]);

    await startApiProcess(sim);
    await startWorkerProcess(app, callbackEnv(sim, gate.url));
    const results = await Promise.all(placed.map((id) => callResult(app, id)));
    expect(results.map((r) => r.outcome)).toEqual(['human', 'transferred', 'transferred', 'voicemail', 'no_answer']);
    for (const [i, id] of placed.entries()) {
      const entry = entries[i]!;
      const [row, ...legs] = (await callWithLegs(app.db, ws.workspaceId, id))!;
      expect({ id, status: row!.status, legs: legs.map((l) => [l.provider_sid, l.status]) }).toEqual({
        id,
        status: lifecycle(entry.status),
        legs: entry.legs.map((l) => [l.sid, lifecycle(l.status)]),
      });
      expect(results[i]).toMatchObject({ status: lifecycle(entry.status), legs: entry.legs.length });
      expect(sim.ledger.entries.filter((e) => e.callId === id)).toEqual([expect.objectContaining({ repeatedCreates: 0 })]);
    }
    expect(await app.db.query('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [ws.workspaceId])).toEqual([{ used: 0 }]);
  });
});

describe('a worker killed after the carrier accepted a call but before its sid was written', () => {
  it('adopts the call the carrier has on the retry instead of placing it again', async () => {
    let worker: ChildProcess | undefined;
    let killOnCreate = true;
    // The carrier's create request: the worker dies as it is sent; the carrier still places the call.
    const sim = await startSimulator({
      authToken: app.config.TWILIO_AUTH_TOKEN,
      speed: 20,
      onRequest: (r) => {
        if (r.method !== 'POST' || !r.path.endsWith('/Calls.json') || !killOnCreate) return;
        killOnCreate = false;
        worker!.kill('SIGKILL');
      },
    });
    try {
      const ws = await callingWorkspace(app);
      worker = await startWorkerProcess(app, callbackEnv(sim, app.url));
      const res = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding('4321') } });
      expect(res.status).toBe(200);
      const callId = res.body.call_id as string;
      await exited(worker);
      const first = sim.ledger.forCallId(callId)!;
      expect(first).toBeDefined();
      expect(await app.db.one('SELECT provider_sid FROM calls WHERE id = $1', [callId])).toEqual({ provider_sid: null });

      // The placement's next attempt (after its 30 s start-to-close timeout) runs on a new worker.
      await startWorkerProcess(app, callbackEnv(sim, app.url));
      expect(await callResult(app, callId)).toMatchObject({ outcome: 'human', status: 'completed' });
      expect(sim.ledger.entries.filter((e) => e.callId === callId)).toEqual([expect.objectContaining({ sid: first.sid, repeatedCreates: 0 })]);
      expect(await app.db.one('SELECT provider_sid FROM calls WHERE id = $1', [callId])).toEqual({ provider_sid: first.sid });
    } finally {
      await sim.close();
    }
  });
});

describe('the whole stack stopped mid-call and started again (Ctrl-C, then npm start)', () => {
  it('ends each call as it would have ended: the carrier simulator resumes its calls from its state file', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-sim-')), 'carrier-simulator.json');
    const simOptions = { authToken: app.config.TWILIO_AUTH_TOKEN, speed: 0.5, stateFile };
    let sim = await startSimulator(simOptions);
    try {
      const ws = await callingWorkspace(app);
      const api = await startApiProcess(sim);
      const worker = await startWorkerProcess(app, callbackEnv(sim, gate.url));
      const placed: string[] = [];
      for (const last4 of ['0001', '0005']) {
        const res = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding(last4) } });
        placed.push(res.body.call_id as string);
      }
      await eventually(
        async () => (await app.db.query('SELECT 1 FROM calls WHERE id = ANY($1) AND provider_sid IS NOT NULL', [placed])).length === placed.length,
        60_000,
        'every call placed',
      );
      gate.hold();
      api.child.kill('SIGTERM');
      worker.kill('SIGTERM');
      await Promise.all([exited(api.child), exited(worker), sim.close()]);
      gate.release();
      const stoppedAt = placed.map((id) => sim.ledger.forCallId(id)!.status);
      expect(stoppedAt.filter((st) => st === 'completed')).toEqual([]);

      // Started again on the same address: the carrier's calls went on meanwhile.
      sim = await startSimulator({ ...simOptions, port: sim.port });
      await startApiProcess(sim);
      await startWorkerProcess(app, callbackEnv(sim, gate.url));
      const results = await Promise.all(placed.map((id) => callResult(app, id)));
      expect(results.map((r) => [r.outcome, r.legs])).toEqual([
        ['human', 0],
        ['transferred', 1],
      ]);
      for (const id of placed) {
        const entry = sim.ledger.forCallId(id)!;
        expect(entry).toMatchObject({ status: 'completed', repeatedCreates: 0 });
        const [, ...legs] = (await callWithLegs(app.db, ws.workspaceId, id))!;
        expect(legs.map((l) => [l.provider_sid, l.status])).toEqual(entry.legs.map((l) => [l.sid, lifecycle(l.status)]));
      }
    } finally {
      await sim.close();
    }
  });
});
