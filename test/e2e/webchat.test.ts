import { WorkflowNotFoundError } from '@temporalio/client';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importFlow } from '../../src/chat/db/flows';
import { UUID_PATTERN } from '../../src/core/ids';
import { chatMessagesAfter, findChatSession } from '../../src/chat/db/chat';
import { chatWorkflowId } from '../../src/temporal/ids';
import { ChatClient, type Frame } from '../helpers/chat-client';
import { eventually } from '../helpers/webhook-receiver';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(240_000);

/** A flow that greets, asks and validates, captures into the lead, decides, skips an automation, answers by model and ends. */
const graph = {
  nodes: [
    { id: 'start', type: 'start', next: 'hello' },
    { id: 'hello', type: 'message', text: 'Welcome to Acme.', next: 'ask_email' },
    { id: 'ask_email', type: 'question', text: 'What is your email?', field: 'email', validate: 'email', next: 'ask_plan' },
    {
      id: 'ask_plan',
      type: 'question',
      text: 'Which plan: basic or pro?',
      field: 'plan',
      validate: 'choice',
      choices: ['basic', 'pro'],
      reask: 'Basic or pro, please.',
      next: 'decide',
    },
    { id: 'decide', type: 'decision', branches: [{ when: { field: 'plan', op: 'equals', value: 'pro' }, next: 'pro_msg' }], otherwise: 'help' },
    { id: 'pro_msg', type: 'message', text: 'Pro includes priority support.', next: 'sync' },
    { id: 'sync', type: 'automation', integration: 'hubspot', action: 'create_contact', next: 'help' },
    { id: 'help', type: 'ai_reply', text: 'Ask me anything.', prompt: 'You are the Acme assistant.', facts: ['Acme is open on weekdays.'], next: 'bye_check' },
    { id: 'bye_check', type: 'decision', branches: [{ when: { keywords: ['bye'] }, next: 'end' }], otherwise: 'help' },
    { id: 'end', type: 'end', text: 'Goodbye!' },
  ],
};

interface ModelRequest {
  path: string;
  authorization?: string;
  body: any;
}

/** A local OpenAI-compatible server: answers chat completions, records every request. */
async function fakeModel(): Promise<{ url: string; requests: ModelRequest[]; close(): Promise<void> }> {
  const requests: ModelRequest[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text);
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const last = body.messages[body.messages.length - 1].content as string;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: `model says: ${last}` }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let app: TestApp;
let model: Awaited<ReturnType<typeof fakeModel>>;
let ws: { workspaceId: string; apiKey: string };
let flowId: string;
let privateFlowId: string;
let otherFlowId: string;
const appConfig = () => ({
  CHAT_MODEL_BASE_URL: model.url,
  CHAT_MODEL_API_KEY: 'sk-test',
  CHAT_MODEL: 'test-model',
  SSRF_ALLOWLIST: '127.0.0.1/8',
  CHAT_UPDATES_PER_RUN: '4',
  WEBCHAT_FRAMES_PER_SECOND: '5',
});
const wsUrl = (flow: string, session: string, reconnect: boolean, query = '') =>
  `${app.url.replace(/^http/, 'ws')}/webchat/flow/${flow}/session/${session}/r/${reconnect}${query}`;
const contents = (frames: Frame[]) => frames.map((f) => `${f.type}:${f.content ?? ''}`);
// A turn's write follows its reply (an activity right after it): Postgres has the turn a moment later.
const storedWhen = (sid: string, count: number) =>
  eventually(
    async () => {
      const rows = await chatMessagesAfter(app.db, sid, 0);
      return rows.length >= count && rows;
    },
    30_000,
    `${count} stored messages`,
  );

beforeAll(async () => {
  model = await fakeModel();
  app = await startTestApp({ workers: true, config: appConfig() });
  ws = await app.newWorkspace();
  expect((await app.request('PUT', '/v1/lead/custom-fields', { key: ws.apiKey, body: { fields: [{ key: 'plan' }] } })).status).toBe(200);
  const owner = { ownerName: 'Ava', ownerPicture: 'https://example.com/ava.png' };
  flowId = (await importFlow(app.db, ws.workspaceId, { name: 'Acme', publicChat: true, ...owner, graph })).id;
  privateFlowId = (await importFlow(app.db, ws.workspaceId, { name: 'Private', publicChat: false, ...owner, graph })).id;
  otherFlowId = (await importFlow(app.db, ws.workspaceId, { name: 'Other', publicChat: true, allowedOrigins: ['https://shop.example'], ...owner, graph })).id;
});

afterAll(async () => {
  await app?.close();
  await model?.close();
});

/** A lead's session, created server-side with the workspace's key (anonymous ones: webchat-takeover.test.ts). */
async function newSession(record: Record<string, unknown>, flow = flowId) {
  return app.request('POST', '/webchat/session', { key: ws.apiKey, body: { record, flow_id: flow } });
}

describe('POST /webchat/session', () => {
  test('with the workspace key: matches or creates the lead by phone and answers the spec shape', async () => {
    const res = await newSession({ phone: '+1 (714) 555-0101', first_name: 'Ann', last_name: 'Lee', plan: 'trial' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      flow_id: flowId,
      session: expect.stringMatching(new RegExp(`^webchat-session\\.${UUID_PATTERN.source.slice(1, -1)}$`, 'i')),
      flow_port: expect.any(Number),
      wss_test_url: '127.0.0.1',
    });
    const lead = await app.request('GET', '/v1/lead/get?phone=17145550101', { key: ws.apiKey });
    expect(lead.status).toBe(200);
    expect(lead.body.first_name).toBe('Ann');
    const again = await newSession({ phone: '17145550101' });
    expect(again.status).toBe(200);
    expect(again.body.session).not.toBe(res.body.session);
  });

  test('unknown or private flows are 404, bad phones 400, foreign origins 403', async () => {
    expect((await newSession({ phone: '17145550102' }, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await newSession({ phone: '17145550102' }, 'nope')).body).toEqual({ status: 'failed', message: 'Flow not found' });
    expect((await newSession({ phone: '17145550102' }, privateFlowId)).status).toBe(404);
    const bad = await newSession({ phone: '12' });
    expect(bad.status).toBe(400);
    expect(bad.body.status).toBe('failed');
    expect((await newSession({ first_name: 'X' })).status).toBe(400);
    const foreign = await app.request('POST', '/webchat/session', {
      body: { record: { phone: '17145550103' }, flow_id: otherFlowId },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const allowed = await app.request('POST', '/webchat/session', {
      body: { record: { phone: '17145550103' }, flow_id: otherFlowId },
      headers: { origin: 'https://shop.example' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});

describe('the chat WebSocket', () => {
  test('anonymous: session, chatowner, then the opening messages, in order', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    const [session, owner, hello, ask] = await c.take(4);
    expect(session).toEqual({ type: 'session', id: expect.any(String), session_id: expect.stringMatching(/^webchat-session\./) });
    expect(owner).toEqual({ type: 'chatowner', id: flowId, profilepic: 'https://example.com/ava.png', name: 'Ava' });
    expect(hello).toEqual({ type: 'message', id: expect.any(String), profilepic: 'https://example.com/ava.png', name: 'Ava', content: 'Welcome to Acme.' });
    expect(ask!.content).toBe('What is your email?');
    c.send({ type: 'ping' });
    expect(await c.next()).toEqual({ type: 'pong' });
    c.send({ type: 'typing', message: true });
    c.send({ type: 'heartbeat', message: { stamp: '2026-01-01T10:00:00', tz: '+04:00' } });
    c.say('not an email');
    const recv = await c.next();
    expect(recv).toEqual({ type: 'recv', id: expect.any(String), profilepic: '', name: 'Anonymous', content: 'not an email' });
    expect((await c.next()).content).toBe('That does not look like a valid email. What is your email?');
    c.close();
  });

  test('with lead data: validates, re-asks, captures into the lead, decides, answers by model, ends', async () => {
    const { body } = await newSession({ phone: '17145550111', first_name: 'Bo', last_name: 'Ng' });
    const c = new ChatClient(wsUrl(flowId, body.session, false));
    expect(contents(await c.take(4)).slice(2)).toEqual(['message:Welcome to Acme.', 'message:What is your email?']);
    c.say('bo@example.com');
    const [recv, ask] = await c.take(2);
    expect(recv).toMatchObject({ type: 'recv', name: 'Bo Ng', content: 'bo@example.com' });
    expect(ask!.content).toBe('Which plan: basic or pro?');
    c.say('gold');
    expect(contents(await c.take(2))).toEqual(['recv:gold', 'message:Basic or pro, please.']);
    c.say('PRO');
    expect(contents(await c.take(3))).toEqual(['recv:PRO', 'message:Pro includes priority support.', 'message:Ask me anything.']);
    const lead = await eventually(
      async () => {
        const res = await app.request('GET', '/v1/lead/get?phone=17145550111', { key: ws.apiKey });
        return res.body.custom_fields?.plan !== undefined && res;
      },
      30_000,
      'the captured plan on the lead',
    );
    expect(lead.body.email).toBe('bo@example.com');
    expect(lead.body.custom_fields).toEqual({ plan: 'pro' });
    c.say('When are you open?');
    expect(contents(await c.take(2))).toEqual(['recv:When are you open?', 'message:model says: When are you open?']);
    // The request the model got: chat-completions shape, the node's prompt and facts, the conversation so far.
    const req = model.requests.at(-1)!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.authorization).toBe('Bearer sk-test');
    expect(req.body.model).toBe('test-model');
    expect(req.body.messages[0]).toEqual({ role: 'system', content: expect.stringContaining('You are the Acme assistant.') });
    expect(req.body.messages[0].content).toContain('Acme is open on weekdays.');
    expect(req.body.messages.at(-1)).toEqual({ role: 'user', content: 'When are you open?' });
    for (const m of req.body.messages) expect(Object.keys(m).sort()).toEqual(['content', 'role']);
    expect(req.body.messages.map((m: any) => m.role)).toContain('assistant');
    c.say('ok bye');
    const end = await c.until('end');
    expect(contents(end)).toEqual(['recv:ok bye', 'message:model says: ok bye', 'message:Goodbye!', 'message:Flow has ended', 'end:']);
    expect(await c.closed).toEqual({ code: 1000, reason: 'Flow has ended' });
    // Stored once each, in order (the run ends once its last turn is stored).
    await app.temporal.client.workflow.getHandle(chatWorkflowId(body.session)).result();
    const stored = await chatMessagesAfter(app.db, body.session, 0);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.map((m) => m.content).slice(-3)).toEqual(['model says: ok bye', 'Goodbye!', 'Flow has ended']);
    // An ended session: the last message, the end, a close.
    const again = new ChatClient(wsUrl(flowId, body.session, false));
    expect(contents(await again.take(4)).slice(2)).toEqual(['message:Flow has ended', 'end:']);
    expect((await again.closed).code).toBe(1000);
  });

  test('r/true replays exactly the messages after ?last=; r/false repeats the latest bot message', async () => {
    const first = new ChatClient(wsUrl(flowId, 'null', false));
    const [session, , hello] = await first.take(4);
    const sid = session!.session_id as string;
    first.say('me@example.com');
    const [recv, plan] = await first.take(2);
    first.close();
    await first.closed;
    const replay = new ChatClient(wsUrl(flowId, sid, true, `?last=${hello!.id}`));
    const frames = await replay.take(5);
    expect(frames[0]).toMatchObject({ type: 'session', session_id: sid });
    expect(frames[1]!.type).toBe('chatowner');
    expect(frames.slice(2).map((f) => [f.type, f.id, f.content])).toEqual([
      ['message', expect.any(String), 'What is your email?'],
      ['recv', recv!.id, 'me@example.com'],
      ['message', plan!.id, 'Which plan: basic or pro?'],
    ]);
    replay.close();
    const plain = new ChatClient(wsUrl(flowId, sid, false));
    const again = await plain.take(3);
    expect(again[2]).toMatchObject({ type: 'message', id: plan!.id, content: 'Which plan: basic or pro?' });
    // The conversation goes on where it was.
    plain.say('basic');
    expect(contents(await plain.take(2))).toEqual(['recv:basic', 'message:Ask me anything.']);
    plain.close();
  });

  test('unknown sessions, sessions of another flow and unknown flows are closed with a reason', async () => {
    const unknown = new ChatClient(wsUrl(flowId, 'webchat-session.00000000-0000-4000-8000-000000000000', false));
    expect(await unknown.closed).toEqual({ code: 4404, reason: 'Unknown session' });
    const { body } = await newSession({ phone: '17145550121' });
    const other = new ChatClient(wsUrl(otherFlowId, body.session, false));
    expect(await other.closed).toEqual({ code: 4403, reason: 'Session belongs to another flow' });
    const noFlow = new ChatClient(wsUrl('00000000-0000-4000-8000-000000000000', 'null', false));
    expect(await noFlow.closed).toEqual({ code: 4404, reason: 'Unknown flow' });
    const priv = new ChatClient(wsUrl(privateFlowId, 'null', false));
    expect((await priv.closed).code).toBe(4404);
    const badUrl = new ChatClient(`${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/null/r/maybe`);
    expect((await badUrl.closed).code).toBe(4400);
    const origin = new ChatClient(wsUrl(otherFlowId, 'null', false), { origin: 'https://evil.example' });
    expect(await origin.closed).toEqual({ code: 4403, reason: 'Origin not allowed for this flow' });
  });

  test('malformed and unknown frames get an error frame; the session stays usable', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    await c.take(4);
    c.send('{not json');
    expect(await c.next()).toEqual({ type: 'error', message: 'Malformed frame: not JSON' });
    c.send({ type: 'dance' });
    expect((await c.next()).message).toMatch(/^Unknown frame type "dance"/);
    c.send({ type: 'message', message: 42 });
    expect((await c.next()).message).toBe('Malformed message frame: message: expected string, received number');
    // The same wording as the REST routes and automation params: a missing field is "required".
    c.send({ type: 'message' });
    expect((await c.next()).message).toBe('Malformed message frame: message: required');
    c.send({ type: 'message', message: '   ' });
    expect((await c.next()).type).toBe('error');
    c.say('x@example.com');
    expect(contents(await c.take(2))).toEqual(['recv:x@example.com', 'message:Which plan: basic or pro?']);
    c.close();
  });

  test('a frame over 64 KiB closes with 1009', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    await c.take(4);
    c.say('a'.repeat(70 * 1024));
    expect((await c.closed).code).toBe(1009);
  });

  test('a flooding client gets an error frame, then a close', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    await c.take(4);
    for (let i = 0; i < 40; i++) c.send({ type: 'typing', message: true });
    expect(await c.until('error')).toEqual([{ type: 'error', message: 'Too many frames: at most 5 per second' }]);
    expect(await c.closed).toEqual({ code: 1008, reason: 'Too many frames' });
  });

  test('a reconnect replays answered turns whose write has not landed yet (from the run) and Postgres gets them once', async () => {
    const first = new ChatClient(wsUrl(flowId, 'null', false));
    const [session, , hello] = await first.take(4);
    const sid = session!.session_id as string;
    // The session row held locked: the turn's write (one statement) waits, its messages stay uncommitted.
    const { replayed, recv, plan, during } = await app.db.tx(async (q) => {
      await q.query('SELECT id FROM chat_sessions WHERE id = $1 FOR UPDATE', [sid]);
      first.say('held@example.com');
      const [recv, plan] = await first.take(2);
      first.close();
      await first.closed;
      const during = await chatMessagesAfter(app.db, sid, 0);
      const again = new ChatClient(wsUrl(flowId, sid, true, `?last=${hello!.id}`));
      const replayed = await again.take(5);
      again.close();
      return { replayed, recv: recv!, plan: plan!, during };
    });
    expect(during.map((m) => m.seq)).toEqual([1, 2]);
    expect(replayed.slice(2).map((f) => [f.type, f.id, f.content])).toEqual([
      ['message', expect.any(String), 'What is your email?'],
      ['recv', recv.id, 'held@example.com'],
      ['message', plan.id, 'Which plan: basic or pro?'],
    ]);
    const stored = await storedWhen(sid, 4);
    expect(stored.map((m) => [m.seq, m.id])).toEqual([
      [1, hello!.id],
      [2, expect.any(String)],
      [3, recv.id],
      [4, plan.id],
    ]);
  });

  test('a long conversation continues as new past the per-run update limit; nothing lost or doubled', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    const [session] = await c.take(4);
    const sid = session!.session_id as string;
    c.say('long@example.com');
    await c.take(2);
    c.say('basic');
    await c.take(2);
    for (let i = 0; i < 7; i++) {
      c.say(`question ${i}`);
      expect(contents(await c.take(2))).toEqual([`recv:question ${i}`, `message:model says: question ${i}`]);
    }
    c.close();
    const handle = app.temporal.client.workflow.getHandle(chatWorkflowId(sid));
    const d = await handle.describe();
    // Nine messages with CHAT_UPDATES_PER_RUN=4: the third run holds the conversation now.
    const firstRunId = d.raw.workflowExecutionInfo?.firstRunId;
    expect(firstRunId).toBeTruthy();
    expect(d.runId).not.toBe(firstRunId);
    // 2 opening + 9 × (user + reply) + the plan question and the pro/basic answer's messages: every user message once.
    const stored = await eventually(
      async () => {
        const rows = await chatMessagesAfter(app.db, sid, 0);
        return rows.filter((m) => m.sender === 'user').length >= 9 && rows.at(-1)!.content === 'model says: question 6' && rows;
      },
      30_000,
      'the last turn stored',
    );
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.filter((m) => m.sender === 'user')).toHaveLength(9);
    expect(d.searchAttributes).toBeDefined();
    expect(d.typedSearchAttributes.get({ name: 'FlowId', type: 'KEYWORD' } as any)).toBe(flowId);
  });

  test('a new conversation is stored, opened, with its first message; its run starts with that message, from the stored state', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    const [session, , opening1, opening2] = await c.take(4);
    const sid = session!.session_id as string;
    // Answered after the opening: the connect is complete, and nothing of it was stored.
    c.send({ type: 'ping' });
    expect(await c.next()).toEqual({ type: 'pong' });
    expect(await findChatSession(app.db, sid)).toBeUndefined();
    const handle = app.temporal.client.workflow.getHandle(chatWorkflowId(sid));
    await expect(handle.describe()).rejects.toThrow(WorkflowNotFoundError);
    c.say('first@example.com');
    expect(contents(await c.take(2))).toEqual(['recv:first@example.com', 'message:Which plan: basic or pro?']);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await storedWhen(sid, 4)).map((m) => [m.seq, m.content])).toEqual([
      [1, 'Welcome to Acme.'],
      [2, 'What is your email?'],
      [3, 'first@example.com'],
      [4, 'Which plan: basic or pro?'],
    ]);
    expect((await chatMessagesAfter(app.db, sid, 0)).slice(0, 2).map((m) => m.id)).toEqual([opening1!.id, opening2!.id]);
    c.close();
  });

  test('a run that ended (idle, terminated) is started again from the state stored in Postgres', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    const [session] = await c.take(4);
    const sid = session!.session_id as string;
    c.say('gone@example.com');
    expect(contents(await c.take(2))).toEqual(['recv:gone@example.com', 'message:Which plan: basic or pro?']);
    const handle = app.temporal.client.workflow.getHandle(chatWorkflowId(sid));
    const { runId: before } = await handle.describe();
    // Terminated once its turn is stored (a terminated run cannot write the turn it answered last).
    await storedWhen(sid, 4);
    await handle.terminate('test: the run is gone');
    c.say('pro');
    expect(contents(await c.take(3))).toEqual(['recv:pro', 'message:Pro includes priority support.', 'message:Ask me anything.']);
    const after = await handle.describe();
    expect(after.runId).not.toBe(before);
    expect(after.status.name).toBe('RUNNING');
    const stored = await storedWhen(sid, 7);
    expect(stored.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    c.close();
  });

  test('an api restart mid-conversation: the client reconnects with r/true and the conversation keeps its context', async () => {
    const c = new ChatClient(wsUrl(flowId, 'null', false));
    const [session] = await c.take(4);
    const sid = session!.session_id as string;
    c.say('keep@example.com');
    const [, plan] = await c.take(2);
    const prefix = app.config.TEMPORAL_TASK_QUEUE_PREFIX;
    const closing = app.close();
    expect((await c.closed).code).toBe(1001);
    await closing;
    app = await startTestApp({ workers: true, config: { ...appConfig(), TEMPORAL_TASK_QUEUE_PREFIX: prefix } });
    const back = new ChatClient(wsUrl(flowId, sid, true, `?last=${plan!.id}`));
    expect((await back.take(2)).map((f) => f.type)).toEqual(['session', 'chatowner']);
    back.say('pro');
    expect(contents(await back.take(3))).toEqual(['recv:pro', 'message:Pro includes priority support.', 'message:Ask me anything.']);
    // The model sees the turns from before the restart.
    back.say('and now?');
    await back.take(2);
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).toContain('keep@example.com');
    back.close();
  });
});
