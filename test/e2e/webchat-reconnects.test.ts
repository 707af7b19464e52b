// Many sockets connecting to one conversation at once (tabs, a reconnect storm after an api restart): they share the
// open run's `unsaved` query and each still gets exactly its replay; a conversation stored as ended asks no run.
import { importFlow } from '../../src/chat/db/flows';
import { chatMessagesAfter } from '../../src/chat/db/chat';
import { chatWorkflowId } from '../../src/temporal/ids';
import { Conversation } from '../../src/chat/webchat/conversation';
import { ChatClient, type Frame } from '../helpers/chat-client';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(240_000);

const graph = {
  nodes: [
    { id: 'start', type: 'start', next: 'hello' },
    { id: 'hello', type: 'message', text: 'Welcome.', next: 'ask_email' },
    { id: 'ask_email', type: 'question', text: 'What is your email?', field: 'email', validate: 'email', next: 'ask_plan' },
    { id: 'ask_plan', type: 'question', text: 'Which plan: basic or pro?', field: 'plan', validate: 'choice', choices: ['basic', 'pro'], next: 'end' },
    { id: 'end', type: 'end', text: 'Goodbye!' },
  ],
};

let app: TestApp;
let flowId: string;
const wsUrl = (session: string, reconnect: boolean, query = '') =>
  `${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/${session}/r/${reconnect}${query}`;
const shape = (frames: Frame[]) => frames.map((f) => [f.type, f.id, f.content]);

beforeAll(async () => {
  app = await startTestApp({ workers: true });
  const ws = await app.newWorkspace();
  flowId = (await importFlow(app.db, ws.workspaceId, { name: 'Reconnects', publicChat: true, ownerName: 'Ava', graph })).id;
});

afterAll(async () => {
  await app?.close();
});

afterEach(() => jest.restoreAllMocks());

test('concurrent reconnects to one conversation share the run query; each replays exactly the unstored turn', async () => {
  const first = new ChatClient(wsUrl('null', false));
  const [session] = await first.take(4);
  const sid = session!.session_id as string;
  // The first message stores the conversation; its turn reaches Postgres a moment later.
  first.say('not an email');
  const [bad, reask] = await first.take(2);
  await eventually(async () => (await chatMessagesAfter(app.db, sid, 0)).length >= 4, 30_000, 'the first turn stored');
  const clients = 12;
  const queries = jest.spyOn(Conversation.prototype, 'unsaved');
  // The session row held locked: the turn's write waits, so its messages are only in the open run.
  const { replays, recv, plan } = await app.db.tx(async (q) => {
    await q.query('SELECT id FROM chat_sessions WHERE id = $1 FOR UPDATE', [sid]);
    first.say('held@example.com');
    const [recv, plan] = await first.take(2);
    first.close();
    await first.closed;
    const storm = Array.from({ length: clients }, () => new ChatClient(wsUrl(sid, true, `?last=${bad!.id}`)));
    const replays = await Promise.all(storm.map((c) => c.take(5)));
    for (const c of storm) c.close();
    return { replays, recv: recv!, plan: plan! };
  });
  for (const frames of replays) {
    expect(frames[0]).toMatchObject({ type: 'session', session_id: sid });
    expect(shape(frames.slice(2))).toEqual([
      ['message', reask!.id, reask!.content],
      ['recv', recv.id, 'held@example.com'],
      ['message', plan.id, 'Which plan: basic or pro?'],
    ]);
  }
  // Without sharing it would be one query per socket.
  expect(queries.mock.calls.length).toBeGreaterThan(0);
  expect(queries.mock.calls.length).toBeLessThan(clients);
});

test('a conversation stored as ended is served from Postgres alone, without asking a run', async () => {
  const c = new ChatClient(wsUrl('null', false));
  const [session] = await c.take(4);
  const sid = session!.session_id as string;
  c.say('done@example.com');
  await c.take(2);
  c.say('pro');
  expect((await c.until('end')).map((f) => f.content ?? f.type)).toEqual(['pro', 'Goodbye!', 'Flow has ended', 'end']);
  await c.closed;
  await app.temporal.client.workflow.getHandle(chatWorkflowId(sid)).result();
  const stored = await chatMessagesAfter(app.db, sid, 0);
  const queries = jest.spyOn(Conversation.prototype, 'unsaved');
  const plain = new ChatClient(wsUrl(sid, false));
  expect((await plain.take(4)).slice(2).map((f) => [f.type, f.content])).toEqual([
    ['message', 'Flow has ended'],
    ['end', undefined],
  ]);
  expect((await plain.closed).code).toBe(1000);
  const replay = new ChatClient(wsUrl(sid, true, `?last=${stored[1]!.id}`));
  const frames = await replay.until('end');
  expect(frames.slice(2).map((f) => [f.type, f.id])).toEqual([
    ...stored.slice(2).map((m) => [m.sender === 'bot' ? 'message' : 'recv', m.id]),
    ['end', undefined],
  ]);
  expect((await replay.closed).code).toBe(1000);
  expect(queries).not.toHaveBeenCalled();
});
