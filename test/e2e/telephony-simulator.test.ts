import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { MachineDetection, TelephonyProvider } from '../../src/telephony/provider';
import type { LedgerEntry } from '../../src/telephony/simulator/ledger';
import { SIMULATED_TRANSCRIPT } from '../../src/telephony/simulator/rules';
import { startSimulator, type Simulator } from '../../src/telephony/simulator/server';
import { createTwilioProvider } from '../../src/telephony/twilio';
import { startCallbackReceiver, type ReceivedCallback } from '../helpers/callback-receiver';
import { repoRoot } from '../helpers/env';
import { callsCreateValidator, callsReadValidator } from '../helpers/twilio-schema';

const TOKEN = 'simulator-test-token';
const LEAD = '+17145550100';
const TRANSFER = '+17145559999';

describe('the carrier simulator, through the Twilio client', () => {
  const validate = callsCreateValidator();
  const requestProblems: string[] = [];
  let creates = 0;
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
  let sim: Simulator;
  let provider: TelephonyProvider;

  beforeAll(async () => {
    receiver = await startCallbackReceiver(TOKEN);
    sim = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      authToken: TOKEN,
      speed: 20,
      onRequest: (r) => {
        if (!r.path.endsWith('/Calls.json')) return;
        creates++;
        requestProblems.push(...validate({ method: r.method, path: r.path, contentType: r.headers['content-type'], body: r.body }));
      },
    });
    provider = createTwilioProvider({ baseUrl: sim.url, accountSid: sim.accountSid, authToken: TOKEN, idempotentPlacement: true });
  });
  afterAll(async () => {
    await sim?.close();
    await receiver?.close();
  });

  /** Places a call from the lead's number's point of view and plays it to its end. */
  async function call(to: string, machineDetection: MachineDetection = 'Enable', callId = randomUUID()) {
    const { providerCallId } = await provider.placeCall({
      callId,
      to,
      from: '+17145550000',
      voiceAgentUrl: `http://127.0.0.1:9/voice/agent?transfer_to=${encodeURIComponent(TRANSFER)}`,
      statusCallbackUrl: `${receiver.url}/hooks/telephony/status?call_id=${callId}`,
      machineDetection,
    });
    return { providerCallId, callId };
  }
  async function played(to: string, machineDetection: MachineDetection = 'Enable') {
    const placed = await call(to, machineDetection);
    await sim.settled(placed.providerCallId);
    const mine = receiver.received.filter((c) => c.url.endsWith(`call_id=${placed.callId}`));
    const legSids = [...new Set(mine.filter((c) => c.event.parentCallSid).map((c) => c.event.callSid))];
    return {
      ...placed,
      all: mine,
      parent: mine.filter((c) => c.event.callSid === placed.providerCallId),
      legs: legSids.map((sid) => mine.filter((c) => c.event.callSid === sid)),
    };
  }
  const statuses = (cbs: ReceivedCallback[]) => cbs.map((c) => c.event.status);
  const expectWellFormed = (cbs: ReceivedCallback[]) => {
    expect(cbs.every((c) => c.signatureValid)).toBe(true);
    expect(cbs.map((c) => c.event.sequence)).toEqual(cbs.map((_, i) => i));
  };

  it('0001: a person answers, a short conversation with a transcript, completed', async () => {
    const { parent, legs } = await played('+17145550001');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(parent[2]!.event.answeredBy).toBe('human');
    expect(parent[3]!.event).toMatchObject({ disposition: 'Completed', transcript: SIMULATED_TRANSCRIPT, durationSeconds: 5 });
    expect(parent[3]!.event.recordingUrl).toBe(
      `https://api.twilio.com/2010-04-01/Accounts/${sim.accountSid}/Recordings/RE${parent[3]!.event.callSid.slice(2)}`,
    );
    expect(parent[3]!.form.get('Direction')).toBe('outbound-api');
    expect(legs).toEqual([]);
  });

  it('0002: voicemail, detected by answering-machine detection', async () => {
    const { parent } = await played('+17145550002', 'DetectMessageEnd');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(parent[2]!.event.answeredBy).toBe('machine_end_beep');
    expect(parent[3]!.event.transcript).toBeNull();
  });

  it('0003: no answer', async () => {
    const { parent } = await played('+17145550003');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'ringing', 'no-answer']);
    expect(parent.at(-1)!.event).toMatchObject({ disposition: 'NOANSWER', answeredBy: null });
  });

  it('0004: busy', async () => {
    const { parent } = await played('+17145550004');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'busy']);
    expect(parent.at(-1)!.event.disposition).toBe('BUSY');
  });

  it("0005: a person answers, then one answered transfer leg to the agent's transfer number", async () => {
    const { parent, legs, providerCallId } = await played('+17145550005');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(legs).toHaveLength(1);
    expectWellFormed(legs[0]!);
    expect(statuses(legs[0]!)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    for (const cb of legs[0]!) {
      expect(cb.event).toMatchObject({ parentCallSid: providerCallId, to: TRANSFER, from: '+17145550005', answeredBy: null });
      expect(cb.form.get('Direction')).toBe('outbound-dial');
    }
    // The leg ends before its parent hangs up.
    expect(statuses(legs[0]!).at(-1)).toBe('completed');
    expect(parent.at(-1)!.event.timestamp.getTime()).toBeGreaterThanOrEqual(legs[0]!.at(-1)!.event.timestamp.getTime());
  });

  it('0006: a person answers, the first transfer leg fails with CONGESTION, the second is answered', async () => {
    const { parent, legs, providerCallId } = await played('+17145550006');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(legs).toHaveLength(2);
    legs.forEach(expectWellFormed);
    expect(statuses(legs[0]!)).toEqual(['queued', 'ringing', 'failed']);
    expect(legs[0]!.at(-1)!.event.disposition).toBe('CONGESTION');
    expect(statuses(legs[1]!)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(legs[1]!.at(-1)!.event.disposition).toBe('Completed');
    expect(legs.flat().every((c) => c.event.parentCallSid === providerCallId && c.event.to === TRANSFER)).toBe(true);
  });

  it("answers GETs of a call and of its child calls as Twilio does, in shapes Twilio's description accepts", async () => {
    const read = callsReadValidator();
    const { providerCallId, legs } = await played('+17145550006');
    const base = `${sim.url}/2010-04-01/Accounts/${sim.accountSid}/Calls`;
    const auth = { authorization: `Basic ${Buffer.from(`${sim.accountSid}:${TOKEN}`).toString('base64')}` };
    const raw = async (path: string) => {
      const res = await fetch(base + path, { headers: auth });
      const body = await res.json();
      expect({ path, status: res.status, problems: read.response(new URL(base + path).pathname, body) }).toEqual({ path, status: 200, problems: [] });
      return body;
    };
    expect(await raw(`/${providerCallId}.json`)).toMatchObject({
      sid: providerCallId,
      status: 'completed',
      answered_by: 'human',
      parent_call_sid: null,
      duration: expect.stringMatching(/^\d+$/),
    });
    const children = (await raw(`.json?ParentCallSid=${providerCallId}&PageSize=50`)) as { calls: { sid: string; status: string; to: string }[] };
    // Newest first, as Twilio lists; the same legs and ends the callbacks reported.
    expect(children.calls.map((c) => [c.sid, c.status, c.to])).toEqual([
      [legs[1]![0]!.event.callSid, 'completed', TRANSFER],
      [legs[0]![0]!.event.callSid, 'failed', TRANSFER],
    ]);
    expect(await provider.listCalls({ to: '+17145550006', from: '+17145550000' })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sid: providerCallId, parentCallSid: null, status: 'completed', answeredBy: 'human', endedAt: expect.any(String) }),
      ]),
    );
    expect(await provider.fetchCall(legs[0]![0]!.event.callSid)).toMatchObject({ parentCallSid: providerCallId, status: 'failed' });
    const unknown = await fetch(`${base}/CA0000000000000000000000000000dead.json`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${base}/${providerCallId}.json`)).status).toBe(401);
  });

  it('0007: the provider accepts the call and then sends nothing more', async () => {
    const silent = await call('+17145550007');
    // A call placed after it plays to its end; the silent one has no script, so nothing can follow.
    await played('+17145552222');
    const entry = sim.ledger.forCallId(silent.callId)!;
    expect(entry).toMatchObject({ rule: 'silent', status: 'queued', callbacks: [] });
    expect(receiver.received.filter((c) => c.url.endsWith(silent.callId))).toEqual([]);
  });

  it('any other number: a person answers and the call completes', async () => {
    const { parent, legs } = await played('+17145551234');
    expectWellFormed(parent);
    expect(statuses(parent)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(parent[2]!.event.answeredBy).toBe('human');
    expect(parent[3]!.event.transcript).toBeNull();
    expect(legs).toEqual([]);
  });

  it('without machine detection, no AnsweredBy is sent', async () => {
    const { parent } = await played('+17145550001', 'off');
    expect(parent.every((c) => c.event.answeredBy === null)).toBe(true);
  });

  it('the ledger, read over HTTP, proves a repeated create with the same call id rang once', async () => {
    const callId = randomUUID();
    const first = await call('+17145553333', 'Enable', callId);
    const again = await call('+17145553333', 'Enable', callId);
    const other = await call('+17145553333');
    expect(again.providerCallId).toBe(first.providerCallId);
    expect(other.providerCallId).not.toBe(first.providerCallId);
    await sim.settled(first.providerCallId);
    const { calls } = (await (await fetch(`${sim.url}/ledger`)).json()) as { calls: LedgerEntry[] };
    const mine = calls.filter((c) => c.callId === callId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ sid: first.providerCallId, repeatedCreates: 1, to: '+17145553333', transferTo: TRANSFER, status: 'completed' });
    // One play-out: each status once.
    expect(mine[0]!.callbacks.map((c) => c.status)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(mine[0]!.callbacks.every((c) => c.responseStatus === 204)).toBe(true);
  });

  it('100 concurrent creates with one call id dial once', async () => {
    const callId = randomUUID();
    const placed = await Promise.all(Array.from({ length: 100 }, () => call('+17145554444', 'off', callId)));
    expect(new Set(placed.map((p) => p.providerCallId)).size).toBe(1);
    const { calls } = (await (await fetch(`${sim.url}/ledger`)).json()) as { calls: LedgerEntry[] };
    expect(calls.filter((c) => c.callId === callId)).toMatchObject([{ repeatedCreates: 99 }]);
    await sim.settled(placed[0]!.providerCallId);
  });

  it('refuses a wrong auth token or another account, dialling nothing', async () => {
    const before = sim.ledger.entries.length;
    const wrongToken = createTwilioProvider({ baseUrl: sim.url, accountSid: sim.accountSid, authToken: 'not-the-token' });
    const otherAccount = createTwilioProvider({ baseUrl: sim.url, accountSid: 'AC11111111111111111111111111111111', authToken: TOKEN });
    for (const p of [wrongToken, otherAccount]) {
      await expect(
        p.placeCall({
          callId: randomUUID(),
          to: '+17145550001',
          from: LEAD,
          voiceAgentUrl: 'http://127.0.0.1:9/v',
          statusCallbackUrl: receiver.url,
          machineDetection: 'off',
        }),
      ).rejects.toMatchObject({ code: 'provider_auth_failed', retryable: false });
    }
    expect(sim.ledger.entries.length).toBe(before);
  });

  it('refuses a malformed call request before sending anything', async () => {
    const before = creates;
    await expect(
      provider.placeCall({
        callId: randomUUID(),
        to: '7145550001',
        from: LEAD,
        voiceAgentUrl: 'http://127.0.0.1:9/v',
        statusCallbackUrl: receiver.url,
        machineDetection: 'off',
      }),
    ).rejects.toMatchObject({ code: 'invalid_call_request', retryable: false, message: expect.stringContaining('to: must be an E.164 phone number') });
    await expect(
      provider.placeCall({
        callId: randomUUID(),
        to: '+17145550001',
        from: LEAD,
        voiceAgentUrl: 'not a url',
        statusCallbackUrl: receiver.url,
        machineDetection: 'off',
      }),
    ).rejects.toMatchObject({ code: 'invalid_call_request', message: expect.stringContaining('voiceAgentUrl') });
    expect(creates).toBe(before);
  });

  it('answers an unknown call sid with a non-retryable not-found', async () => {
    await expect(provider.cancelCall('CA0000000000000000000000000000dead')).rejects.toMatchObject({ code: 'provider_call_not_found', retryable: false });
  });

  it("sent only requests that Twilio's API description accepts", () => {
    expect(creates).toBeGreaterThan(10);
    expect(requestProblems).toEqual([]);
  });
});

describe('the simulator on raw requests', () => {
  it('answers a create without To, or a non-form body, like Twilio, with nothing added to the ledger', async () => {
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', authToken: TOKEN, speed: 20 });
    try {
      const post = (body: string, contentType = 'application/x-www-form-urlencoded') =>
        fetch(`${sim.url}/2010-04-01/Accounts/${sim.accountSid}/Calls.json`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${sim.accountSid}:${TOKEN}`).toString('base64')}`, 'content-type': contentType },
          body,
        });
      const noTo = await post(new URLSearchParams({ From: LEAD, Url: 'http://127.0.0.1:9/v' }).toString());
      expect(noTo.status).toBe(400);
      expect(await noTo.json()).toMatchObject({ code: 21201, status: 400 });
      const json = await post(JSON.stringify({ To: '+17145550001', From: LEAD, Url: 'http://127.0.0.1:9/v' }), 'application/json');
      expect(json.status).toBe(400);
      expect(sim.ledger.entries).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});

describe('cancelling and hanging up in the simulator (real-time speed)', () => {
  it('cancels a ringing call, ignores cancel once answered, and hangs up an answered one', async () => {
    const receiver = await startCallbackReceiver(TOKEN);
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', authToken: TOKEN, speed: 1 });
    try {
      const provider = createTwilioProvider({ baseUrl: sim.url, accountSid: sim.accountSid, authToken: TOKEN });
      const place = (to: string, callId: string) =>
        provider.placeCall({
          callId,
          to,
          from: LEAD,
          voiceAgentUrl: 'http://127.0.0.1:9/v',
          statusCallbackUrl: `${receiver.url}/s?c=${callId}`,
          machineDetection: 'off',
        });

      const ringing = await place('+17145550003', 'ring');
      await provider.cancelCall(ringing.providerCallId);
      await sim.settled(ringing.providerCallId);
      expect(
        sim.ledger
          .find(ringing.providerCallId)!
          .entry.callbacks.map((c) => c.status)
          .at(-1),
      ).toBe('canceled');
      expect(receiver.received.filter((c) => c.url.endsWith('c=ring')).map((c) => c.event.status)).not.toContain('no-answer');

      const answered = await place('+17145550001', 'talk');
      await receiver.waitFor((c) => c.url.endsWith('c=talk') && c.event.status === 'in-progress');
      await provider.cancelCall(answered.providerCallId);
      expect(sim.ledger.find(answered.providerCallId)!.call.status).toBe('in-progress');
      await provider.hangUpCall(answered.providerCallId);
      await sim.settled(answered.providerCallId);
      const talk = receiver.received.filter((c) => c.url.endsWith('c=talk'));
      expect(talk.map((c) => c.event.status)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
      expect(talk.every((c) => c.signatureValid)).toBe(true);
      expect(talk.at(-1)!.event.transcript).toBeNull(); // ended by the hang-up, not by the scripted conversation
    } finally {
      await sim.close();
      await receiver.close();
    }
  });
});

describe('the simulator as a process', () => {
  it('starts from its entry point, prints its address, serves the ledger and stops on SIGTERM, keeping its state', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-sim-')), 'state.json');
    const args = ['src/telephony/simulator/main.ts', '--port', '0', '--speed', '20', '--state', stateFile];
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'run-ts.js'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, TWILIO_AUTH_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        void exited.then((code) => reject(new Error(`simulator exited (${code}): ${out}`)));
      });
      const provider = createTwilioProvider({ baseUrl: url, accountSid: 'AC00000000000000000000000000000000', authToken: TOKEN });
      const callId = randomUUID();
      const { providerCallId } = await provider.placeCall({
        callId,
        to: '+17145550007',
        from: LEAD,
        voiceAgentUrl: 'http://127.0.0.1:9/v',
        statusCallbackUrl: 'http://127.0.0.1:9/s',
        machineDetection: 'off',
      });
      const { calls } = (await (await fetch(`${url}/ledger`)).json()) as { calls: LedgerEntry[] };
      expect(calls).toMatchObject([{ callId, sid: providerCallId, rule: 'silent' }]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({
        entries: [{ callId, sid: providerCallId }],
        calls: [{ sid: providerCallId, status: 'queued' }],
      });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a bad --speed with a clear message', async () => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'run-ts.js'), 'src/telephony/simulator/main.ts', '--speed', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--speed must be a positive number (got 0)');
  });
});

describe('the simulator across a restart (its state file)', () => {
  it('keeps its ledger and calls, and a call in flight plays its remaining callbacks after the restart', async () => {
    const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-sim-')), 'carrier-simulator.json');
    const receiver = await startCallbackReceiver(TOKEN);
    let sim = await startSimulator({ authToken: TOKEN, speed: 2, stateFile });
    try {
      const callId = randomUUID();
      const { providerCallId } = await createTwilioProvider({ baseUrl: sim.url, accountSid: sim.accountSid, authToken: TOKEN }).placeCall({
        callId,
        to: '+17145550005',
        from: LEAD,
        voiceAgentUrl: `http://127.0.0.1:9/voice/agent?transfer_to=${encodeURIComponent(TRANSFER)}`,
        statusCallbackUrl: `${receiver.url}/hooks/telephony/status?call_id=${callId}`,
        machineDetection: 'Enable',
      });
      // Stopped (as by Ctrl-C) once the person answered: the call is in progress, its transfer and end still to come.
      await receiver.waitFor((c) => c.event.callSid === providerCallId && c.event.status === 'in-progress');
      await sim.close();
      expect(sim.ledger.forCallId(callId)!.status).toBe('in-progress');

      sim = await startSimulator({ authToken: TOKEN, speed: 2, stateFile });
      expect(sim.ledger.forCallId(callId)).toMatchObject({ sid: providerCallId, rule: 'one_transfer', repeatedCreates: 0 });
      await sim.settled(providerCallId);
      // Across both lives: every callback once, numbered on from where the first life stopped.
      const mine = receiver.received.filter((c) => c.url.endsWith(`call_id=${callId}`));
      const parent = mine.filter((c) => c.event.callSid === providerCallId);
      const legs = mine.filter((c) => c.event.parentCallSid === providerCallId);
      expect(parent.map((c) => [c.event.status, c.event.sequence])).toEqual([
        ['queued', 0],
        ['ringing', 1],
        ['in-progress', 2],
        ['completed', 3],
      ]);
      expect(legs.map((c) => [c.event.status, c.event.sequence])).toEqual([
        ['queued', 0],
        ['ringing', 1],
        ['in-progress', 2],
        ['completed', 3],
      ]);
      expect(mine.every((c) => c.signatureValid)).toBe(true);
      expect(sim.ledger.forCallId(callId)).toMatchObject({ status: 'completed', legs: [{ status: 'completed', to: TRANSFER }] });
      expect(sim.ledger.forCallId(callId)!.callbacks).toHaveLength(8);
      const provider = createTwilioProvider({ baseUrl: sim.url, accountSid: sim.accountSid, authToken: TOKEN });
      expect(await provider.fetchCall(providerCallId)).toMatchObject({ status: 'completed', answeredBy: 'human' });
      // A create repeated after the restart is still recognised by its call id.
      await provider.placeCall({
        callId,
        to: '+17145550005',
        from: LEAD,
        voiceAgentUrl: 'http://127.0.0.1:9/v',
        statusCallbackUrl: `${receiver.url}/s`,
        machineDetection: 'off',
      });
      expect(sim.ledger.entries.filter((e) => e.callId === callId)).toEqual([expect.objectContaining({ repeatedCreates: 1 })]);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });
});
