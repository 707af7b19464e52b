import { randomBytes, randomUUID } from 'node:crypto';
import { startOutboundCall } from '../../src/calls/start';
import { UUID_PATTERN } from '../../src/core/ids';
import { callWorkflowId } from '../../src/temporal/ids';
import { twilioSignature } from '../../src/telephony/signature';
import { SIMULATED_TRANSCRIPT } from '../../src/telephony/simulator/rules';
import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { callsCreateValidator } from '../helpers/twilio-schema';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(120_000);

let app: TestApp;
let caller: Awaited<ReturnType<typeof callingWorkspace>>;

beforeAll(async () => {
  // The provider timeout stays at its default (minutes): a silent call (…0007) holds its slot until the test cancels
  // it, however slow the machine. Its end on the provider's silence: calls-time.test.ts, on the time-skipping server.
  app = await startTestApp({ workers: true, simulator: { speed: 20 } });
  caller = await callingWorkspace(app);
});
afterAll(async () => {
  // Every Calls API request the api sent in this file is one Twilio's API description accepts.
  const validate = callsCreateValidator();
  const creates = app.simulator!.requests.filter((r) => r.path.endsWith('/Calls.json'));
  const problems = creates.flatMap((r) => validate({ method: r.method, path: r.path, contentType: String(r.headers['content-type']), body: r.body }));
  await app.close();
  expect(creates.length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

const call = (body: Record<string, unknown>, key = caller.apiKey, headers: Record<string, string> = {}) =>
  app.request('POST', '/v1/agent', { key, body, headers });
const details = async (callId: string, key = caller.apiKey) => app.request('GET', `/v1/calls/get?call_id=${encodeURIComponent(callId)}`, { key });
const ledgerFor = (callId: string) => app.simulator!.ledger.entries.filter((e) => e.callId === callId);

describe('POST /v1/agent through the simulator', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['0001', 'human', { status: 'completed', answered_by: 'human', disposition: 'Completed', transcript: SIMULATED_TRANSCRIPT }],
    ['0002', 'voicemail', { status: 'completed', answered_by: 'machine_end_beep', disposition: 'Completed' }],
    ['0003', 'no_answer', { status: 'no_answer', disposition: 'NOANSWER' }],
    ['0004', 'busy', { status: 'busy', disposition: 'BUSY' }],
    ['0005', 'transferred', { status: 'completed', transfer: true, answered_by: 'human' }],
    ['0006', 'transferred', { status: 'completed', transfer: true }],
    ['4321', 'human', { status: 'completed', answered_by: 'human', transcript: null }],
  ];

  it.each(cases)('a call to …%s ends as %s, recorded with its legs', async (last4, outcome, fields) => {
    const phone = phoneEnding(last4);
    const res = await call({ agent: caller.agentId, phone, request_data: { crm: { id: 7 }, tags: ['a'] } });
    expect(res.status).toBe(200);
    const { call_id: callId } = res.body;
    expect(res.body).toEqual({ call_id: expect.stringMatching(UUID_PATTERN), to: phone, from: '12125559002', agent: caller.agentId });

    const result = await callResult(app, callId);
    expect(result.outcome).toBe(outcome);
    expect(ledgerFor(callId)).toHaveLength(1);

    const got = await details(callId);
    expect(got.status).toBe(200);
    const [parent, ...legs] = got.body;
    expect(parent).toMatchObject({
      call_id: callId,
      phone_to: phone,
      phone_from: '12125559002',
      agent: caller.agentId,
      direction: 'out',
      request_data: { crm: { id: 7 }, tags: ['a'] },
      ...fields,
    });
    expect(parent.call_end).toEqual(expect.any(String));
    if (last4 === '0005') {
      expect(legs).toEqual([
        expect.objectContaining({ call_id: `${callId}:1`, is_transfer: true, phone_to: '18005550100', phone_from: phone, status: 'completed' }),
      ]);
      expect(legs[0]).not.toHaveProperty('answered_by');
      expect(result.legs).toBe(1);
    } else if (last4 === '0006') {
      expect(legs.map((l: { call_id: string; status: string; disposition: string }) => [l.call_id, l.status, l.disposition])).toEqual([
        [`${callId}:1`, 'failed', 'CONGESTION'],
        [`${callId}:2`, 'completed', 'Completed'],
      ]);
      // A leg's id finds the whole call.
      expect((await details(`${callId}:2`)).body).toEqual(got.body);
    } else {
      expect(legs).toEqual([]);
      expect(parent).not.toHaveProperty('transfer');
    }
  });

  it('picks the caller id with the destination area code first, else the least recently used', async () => {
    const la = await call({ agent: caller.agentId, phone: '17145550123' });
    expect(la.body.from).toBe('17145559001');
    const explicit = await call({ agent: caller.agentId, phone: phoneEnding('0004'), from: '+1 714 555 9001' });
    expect(explicit.status).toBe(200);
    expect(explicit.body.from).toBe('17145559001');
    await Promise.all([callResult(app, la.body.call_id), callResult(app, explicit.body.call_id)]);
  });

  it('refuses bad input before anything is dialled', async () => {
    const before = app.simulator!.ledger.entries.length;
    const other = await callingWorkspace(app);
    expect(await call({ agent: other.agentId, phone: phoneEnding('0001') })).toMatchObject({
      status: 404,
      body: { status: 'failed', message: 'Invalid agent' },
    });
    expect((await call({ agent: 'not-a-uuid', phone: phoneEnding('0001') })).status).toBe(404);
    expect((await call({ agent: caller.agentId, phone: '12' })).body).toEqual({ status: 'failed', message: expect.stringMatching(/phone/) });
    expect((await call({ agent: caller.agentId })).status).toBe(400);
    expect((await call({ agent: caller.agentId, phone: phoneEnding('0001'), from: '12125550000' })).body.message).toMatch(/from/);
    for (const request_data of [{ a: 'x\u0000y' }, { a: '\ud800' }, { ['\udc00']: 1 }, 'x'.repeat(17_000)]) {
      expect(await call({ agent: caller.agentId, phone: phoneEnding('0001'), request_data })).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/request_data/) },
      });
    }
    const dnc = phoneEnding('0001');
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [caller.workspaceId, dnc]);
    const refused = await call({ agent: caller.agentId, phone: dnc });
    expect(refused).toMatchObject({ status: 409, body: { status: 'failed', message: expect.stringMatching(/do-not-call/) } });
    expect(app.simulator!.ledger.entries.length).toBe(before);
    const rows = await app.db.query('SELECT id FROM calls WHERE workspace_id = $1 AND phone_to = $2', [caller.workspaceId, dnc]);
    expect(rows).toEqual([]);
  });

  it('refuses a direct call outside the agent window with a clear 409', async () => {
    const ws = await callingWorkspace(app);
    // A window open only on a day that is not today in the workspace's zone.
    const today = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: ws.timezone }).format(new Date()).toLowerCase();
    const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].filter((d) => d !== today);
    await app.db.query('UPDATE agents SET call_window = $2 WHERE id = $1', [ws.agentId, JSON.stringify({ start: '08:00', end: '21:00', days: [days[0]] })]);
    const res = await call({ agent: ws.agentId, phone: phoneEnding('0001') }, ws.apiKey);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(new RegExp(`^Outside the call window \\(08:00–21:00 ${ws.timezone}\\): no call placed; it opens at `));
  });

  it("answers 404 for another workspace's call and its legs", async () => {
    const res = await call({ agent: caller.agentId, phone: phoneEnding('0005') });
    await callResult(app, res.body.call_id);
    const other = await app.newWorkspace();
    expect((await details(res.body.call_id, other.apiKey)).status).toBe(404);
    expect((await details(`${res.body.call_id}:1`, other.apiKey)).status).toBe(404);
    expect((await app.request('POST', '/v1/calls/cancel', { key: other.apiKey, body: { call_id: res.body.call_id } })).status).toBe(404);
    expect((await details('nope')).status).toBe(400);
    expect((await details('0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e')).status).toBe(404);
  });

  it('places one call for 100 concurrent requests with one Idempotency-Key', async () => {
    const body = { agent: caller.agentId, phone: phoneEnding('4444') };
    const responses = await Promise.all(Array.from({ length: 100 }, () => call(body, caller.apiKey, { 'idempotency-key': 'call-once-1' })));
    const ok = responses.filter((r) => r.status === 200);
    expect(responses.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(ok.length).toBeGreaterThan(0);
    const ids = new Set(ok.map((r) => r.body.call_id));
    expect(ids.size).toBe(1);
    const [callId] = [...ids] as string[];
    await callResult(app, callId!);
    const again = await call(body, caller.apiKey, { 'idempotency-key': 'call-once-1' });
    expect(again.body.call_id).toBe(callId);
    expect(app.simulator!.ledger.entries.filter((e) => e.to === `+${body.phone}`)).toHaveLength(1);
  });

  it('cancels a call in progress: hung up at the provider, status canceled', async () => {
    const res = await call({ agent: caller.agentId, phone: phoneEnding('0007') });
    const callId = res.body.call_id;
    await eventually(async () => ledgerFor(callId).length === 1, 20_000, 'the call to be placed');
    const canceled = await app.request('POST', '/v1/calls/cancel', { key: caller.apiKey, body: { call_id: callId } });
    expect(canceled).toMatchObject({ status: 200, body: { status: 'success', call_id: callId } });
    expect(await callResult(app, callId)).toMatchObject({ outcome: 'canceled', status: 'canceled' });
    expect((await details(callId)).body[0]).toMatchObject({ status: 'canceled', ended_reason: 'canceled' });
    // Never answered, so the provider ends it as canceled: one placement, stopped.
    expect(ledgerFor(callId)).toEqual([expect.objectContaining({ status: 'canceled' })]);
    expect((await app.request('POST', '/v1/calls/cancel', { key: caller.apiKey, body: { call_id: callId } })).status).toBe(409);
  });
});

describe('status callbacks', () => {
  const callbackUrl = (callId: string) => `${app.url}/telephony/twilio/status?call_id=${callId}`;
  const form = (sid: string, status: string, sequence: number) =>
    new URLSearchParams({
      CallSid: sid,
      CallStatus: status,
      SequenceNumber: String(sequence),
      Timestamp: new Date().toUTCString(),
      From: '+12125559002',
      To: '+12125550001',
    });
  const post = (url: string, body: URLSearchParams, signature?: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
      body: body.toString(),
    });

  it('refuses bad and missing signatures (403, nothing recorded) and ignores replays of an ended call', async () => {
    const res = await call({ agent: caller.agentId, phone: phoneEnding('0001') });
    const callId = res.body.call_id;
    await callResult(app, callId);
    const before = (await details(callId)).body;
    const sid = ledgerFor(callId)[0]!.sid;
    const ringing = form(sid, 'ringing', 99);
    expect((await post(callbackUrl(callId), ringing)).status).toBe(403);
    expect((await post(callbackUrl(callId), ringing, 'bm90IGEgc2lnbmF0dXJl')).status).toBe(403);
    const signedForOtherCall = twilioSignature(app.config.TWILIO_AUTH_TOKEN, callbackUrl('0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e'), ringing);
    expect((await post(callbackUrl(callId), ringing, signedForOtherCall)).status).toBe(403);
    // Correctly signed, but the call has ended: ignored, and a completed call never goes back to ringing.
    const replay = await post(callbackUrl(callId), ringing, twilioSignature(app.config.TWILIO_AUTH_TOKEN, callbackUrl(callId), ringing));
    expect([replay.status, replay.headers.get('switchboard-workflow-id')]).toEqual([204, null]); // no run signalled
    expect((await details(callId)).body).toEqual(before);
    const unknown = '0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e';
    expect((await post(callbackUrl(unknown), ringing, twilioSignature(app.config.TWILIO_AUTH_TOKEN, callbackUrl(unknown), ringing))).status).toBe(404);
  });
});

describe('a validly signed callback (a leaked token) is trusted no further than its own call', () => {
  const callbackUrl = (callId: string) => `${app.url}/telephony/twilio/status?call_id=${callId}`;
  const form = (sid: string, status: string, sequence: number, extra: Record<string, string> = {}) =>
    new URLSearchParams({
      CallSid: sid,
      CallStatus: status,
      SequenceNumber: String(sequence),
      Timestamp: new Date().toUTCString(),
      From: '+12125559002',
      To: '+12125550007',
      ...extra,
    });
  const signed = (callId: string, body: URLSearchParams) =>
    fetch(callbackUrl(callId), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(app.config.TWILIO_AUTH_TOKEN, callbackUrl(callId), body),
      },
      body: body.toString(),
    });
  const newSid = () => `CA${randomBytes(16).toString('hex')}`;

  it('adds no leg whose parent is another call, refuses a non-https RecordingUrl, and keeps script text as text', async () => {
    const callId = (await call({ agent: caller.agentId, phone: phoneEnding('0007') })).body.call_id as string;
    await eventually(
      async () => (await app.db.one<{ provider_sid: string | null }>('SELECT provider_sid FROM calls WHERE id = $1', [callId]))?.provider_sid ?? undefined,
      20_000,
      'the call placed',
    );
    const sid = ledgerFor(callId)[0]!.sid;

    // A "leg" to an arbitrary number, child of some other call: dropped. The ringing after it is applied, so the leg
    // was looked at first.
    expect((await signed(callId, form(newSid(), 'in-progress', 0, { ParentCallSid: newSid(), To: '+19005550123' }))).status).toBe(204);
    // The answer names the run it signalled (issue 28).
    const rang = await signed(callId, form(sid, 'ringing', 1));
    expect([rang.status, rang.headers.get('switchboard-workflow-id')]).toEqual([204, callWorkflowId(callId)]);
    await eventually(async () => (await details(callId)).body[0].status === 'ringing', 20_000, 'the ringing applied');
    expect((await details(callId)).body).toHaveLength(1);

    const script = '<script>alert(document.cookie)</script><img src=x onerror="alert(1)">';
    for (const url of ['javascript:alert(document.cookie)', 'http://127.0.0.1/r.mp3', 'data:text/html,<script>alert(1)</script>']) {
      const refused = await signed(callId, form(sid, 'completed', 2, { Transcript: script, RecordingUrl: url }));
      expect({ url, status: refused.status, body: await refused.json() }).toEqual({
        url,
        status: 400,
        body: { status: 'failed', message: expect.stringMatching(/^RecordingUrl: /) },
      });
    }
    expect((await signed(callId, form(sid, 'completed', 2, { Transcript: script, CallDuration: '3' }))).status).toBe(204);
    expect(await callResult(app, callId)).toMatchObject({ status: 'completed', legs: 0 });
    const shown = await fetch(`${app.url}/v1/calls/get?call_id=${callId}`, { headers: { authorization: `Bearer ${caller.apiKey}` } });
    expect(shown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await shown.json()).toEqual([expect.objectContaining({ transcript: script, recording_url: null })]);
  });
});

describe('the concurrent-call cap', () => {
  it('answers a direct call over the cap 429 naming the cap, and a journey call waits for a slot', async () => {
    const ws = await callingWorkspace(app);
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 1 WHERE id = $1', [ws.workspaceId]);
    const first = await call({ agent: ws.agentId, phone: phoneEnding('0007') }, ws.apiKey);
    expect(first.status).toBe(200);
    const over = await call({ agent: ws.agentId, phone: phoneEnding('0001') }, ws.apiKey);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    expect(over.body).toEqual({
      status: 'failed',
      message: expect.stringMatching(/^Concurrent call cap reached: this workspace may have 1 call in progress at once \(its concurrent-call cap\)/),
    });

    // A journey's call (waitForSlot) over the cap is recorded and waits, dialling nothing, until the slot is free.
    const waiting = randomUUID();
    const phone = phoneEnding('4242');
    await startOutboundCall(app.temporal.client, app.config.TEMPORAL_TASK_QUEUE_PREFIX, {
      callId: waiting,
      workspaceId: ws.workspaceId,
      agentId: ws.agentId,
      to: phone,
      waitForSlot: true,
      source: 'journey',
    });
    await eventually(async () => (await details(waiting, ws.apiKey)).body[0]?.status === 'queued', 20_000, 'the waiting call to be recorded');
    expect(ledgerFor(waiting)).toEqual([]);
    expect((await app.request('POST', '/v1/calls/cancel', { key: ws.apiKey, body: { call_id: first.body.call_id } })).status).toBe(200);
    expect(await callResult(app, waiting)).toMatchObject({ outcome: 'human', status: 'completed' });
    expect(ledgerFor(waiting)).toHaveLength(1);
    expect(await app.db.query('SELECT id FROM calls WHERE workspace_id = $1 AND slot_taken_at IS NOT NULL', [ws.workspaceId])).toEqual([]);
    expect(await app.db.query('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [ws.workspaceId])).toEqual([{ used: 0 }]);
  });

  it('takes back a slot held past any call (a run terminated by an operator never releases it)', async () => {
    const ws = await callingWorkspace(app);
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 1 WHERE id = $1', [ws.workspaceId]);
    await app.db.query(
      "INSERT INTO calls (id, workspace_id, phone_to, phone_from, slot_taken_at) VALUES ($1, $2, '12125550000', '12125559002', now() - interval '7 hours')",
      [randomUUID(), ws.workspaceId],
    );
    await app.db.query('INSERT INTO call_slot_counts (workspace_id, used) VALUES ($1, 1)', [ws.workspaceId]);
    const res = await call({ agent: ws.agentId, phone: phoneEnding('0004') }, ws.apiKey);
    expect(res.status).toBe(200);
    expect(await callResult(app, res.body.call_id)).toMatchObject({ outcome: 'busy' });
  });
});
