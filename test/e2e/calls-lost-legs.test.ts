// A transfer leg's callbacks refused while something behind the api is down (Temporal, Postgres) are never sent again:
// the call still ends with every leg the carrier placed, as the carrier saw it.
import { callWithLegs } from '../../src/calls/db/calls';
import { startCallbackGate } from '../helpers/callback-gate';
import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(240_000);

let app: TestApp;
let gate: Awaited<ReturnType<typeof startCallbackGate>>;

beforeAll(async () => {
  gate = await startCallbackGate();
  app = await startTestApp({ workers: true, simulator: { speed: 5 }, config: { TELEPHONY_CALLBACK_BASE_URL: gate.url } });
  gate.forwardTo(app.url);
});
afterAll(async () => {
  await gate?.close();
  await app?.close();
});

const lifecycle = (s: string) => s.replace(/-/g, '_');

it('records the legs whose callbacks were all lost, read from the carrier before the call ends', async () => {
  const ws = await callingWorkspace(app);
  // Every callback of a child call (a transfer leg) is lost; the parent's arrive.
  gate.refuse((body) => new URLSearchParams(body).has('ParentCallSid'));
  const placed = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding('0006') } });
  expect(placed.status).toBe(200);
  const result = await callResult(app, placed.body.call_id);
  const entry = app.simulator!.ledger.forCallId(placed.body.call_id)!;
  expect(entry.legs.length).toBe(2);
  // The refusals happened: the legs' callbacks never reached the api.
  const legSids = new Set(entry.legs.map((l) => l.sid));
  await app.simulator!.settled(entry.sid);
  const legCallbacks = entry.callbacks.filter((c) => legSids.has(c.callSid));
  expect(legCallbacks.length).toBeGreaterThan(0);
  expect(legCallbacks.every((c) => c.responseStatus === 503)).toBe(true);
  expect(result).toMatchObject({ outcome: 'transferred', legs: 2 });
  const [row, ...legs] = (await callWithLegs(app.db, ws.workspaceId, placed.body.call_id))!;
  expect({ status: row!.status, legs: legs.map((l) => [l.provider_sid, l.status]) }).toEqual({
    status: lifecycle(entry.status),
    legs: entry.legs.map((l) => [l.sid, lifecycle(l.status)]),
  });
});
