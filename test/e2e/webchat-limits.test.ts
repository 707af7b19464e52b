import { randomUUID } from 'node:crypto';
import { createChatSession, saveChatTurn } from '../../src/db/repos/chat';
import { importFlow } from '../../src/db/repos/flows';
import { initialEngineState } from '../../src/chat/engine';
import { ChatClient } from '../helpers/chat-client';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(120_000);

const graph = {
  nodes: [
    { id: 'start', type: 'start', next: 'q' },
    { id: 'q', type: 'question', text: 'Name?', field: 'first_name', next: 'end' },
    { id: 'end', type: 'end' },
  ],
};

let app: TestApp;
let flowId: string;
let workspaceId: string;

beforeAll(async () => {
  // No workers: these checks never reach the workflow.
  app = await startTestApp({ config: { WEBCHAT_SESSIONS_PER_ADDRESS: '2', WEBCHAT_SILENCE_GRACE_MS: '1000' } });
  workspaceId = (await app.newWorkspace()).workspaceId;
  flowId = (await importFlow(app.db, workspaceId, { name: 'Limits', publicChat: true, ownerName: 'Ava', graph })).id;
});

afterAll(async () => {
  await app?.close();
});

test('POST /webchat/session is rate-limited per address: 429 with Retry-After', async () => {
  const post = () => app.request('POST', '/webchat/session', { body: { record: { phone: '17145550199' }, flow_id: flowId } });
  const answers = [await post(), await post(), await post()];
  expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
  expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answers[2]!.body).toEqual({ status: 'failed', message: expect.stringMatching(/^Too many requests/) });
  // The widget and the demo page are not counted.
  expect((await app.request('GET', '/webchat/widget.js')).status).toBe(200);
  const demo = await app.request('GET', `/webchat/demo/${flowId}`);
  expect(demo.status).toBe(200);
  expect(demo.body).toContain(`data-flow-id="${flowId}"`);
  expect((await app.request('GET', '/webchat/demo/00000000-0000-4000-8000-000000000000')).status).toBe(404);
});

/** A stored conversation waiting at its question (no workflow needed to reconnect to it). */
async function storedSession(): Promise<{ session: string; messageId: string }> {
  const session = `webchat-session.${randomUUID()}`;
  await createChatSession(app.db, { id: session, workspaceId, flowId, leadId: null });
  const messageId = randomUUID();
  await saveChatTurn(app.db, workspaceId, session, [{ id: messageId, seq: 1, sender: 'bot', content: 'Name?' }], {
    engine: { ...initialEngineState(), at: 'q' },
    seq: 1,
    opened: true,
  });
  return { session, messageId };
}

const chatUrl = (session: string) => `${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/${session}/r/false`;

test('a browser on another site may preflight POST /webchat/session', async () => {
  const res = await fetch(`${app.url}/webchat/session`, {
    method: 'OPTIONS',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  expect(res.headers.get('access-control-allow-methods')).toBe('POST');
  expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
});

// That heartbeats keep a connection open is checked on jest's clock (test/unit/chat-silence.test.ts): through a real
// socket, a loaded machine could delay a heartbeat past a one-second grace period. Frames on the wire: webchat.test.ts.
test('a connection silent past the grace period is closed', async () => {
  const { session, messageId } = await storedSession();
  const c = new ChatClient(chatUrl(session));
  const frames = await c.take(3);
  expect(frames[2]).toMatchObject({ type: 'message', id: messageId, content: 'Name?' });
  expect(await c.closed).toEqual({ code: 4408, reason: 'No frame within 1 s (send a heartbeat every 15 s)' });
});

test('only the chat path upgrades to a WebSocket', async () => {
  const c = new ChatClient(`${app.url.replace(/^http/, 'ws')}/v1/lead/get`);
  await expect(c.opened).rejects.toThrow('upgrade refused: 404');
});

test('draining (shutdown) closes chat sockets with 1012 so clients reconnect elsewhere, and refuses new ones', async () => {
  const { session } = await storedSession();
  const c = new ChatClient(chatUrl(session));
  await c.take(3);
  await app.drain(100);
  expect(await c.closed).toEqual({ code: 1012, reason: 'Server restarting, reconnect' });
  const late = new ChatClient(chatUrl(session));
  await expect(late.opened).rejects.toThrow('upgrade refused: 503');
});
