import { randomInt, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createChatSession, saveChatTurn } from '../../src/chat/db/chat';
import { importFlow } from '../../src/chat/db/flows';
import { initialEngineState } from '../../src/chat/engine';
import { ChatClient } from '../helpers/chat-client';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

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

// Issue 22, finding 4: upgrades skipped every per-address limit, and each connect to session/null stored a session.
// Behind a proxy (TRUST_PROXY) each test speaks from addresses of its own: the counters live in the shared test
// database, where 127.0.0.1's buckets are busy with every other test file's requests.
describe('chat upgrades and the per-address limits', () => {
  let limited: TestApp;
  let limitedFlow: string;
  const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const urlOf = (target: TestApp, flow: string, session: string, reconnect = false) =>
    `${target.url.replace(/^http/, 'ws')}/webchat/flow/${flow}/session/${session}/r/${reconnect}`;
  const sessionsOf = async (flow: string) => (await app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM chat_sessions WHERE flow_id = $1', [flow]))!.n;

  /** Connects, takes the three opening frames and closes: one upgrade, served. */
  const served = async (url: string, address: string) => {
    const c = new ChatClient(url, from(address));
    await c.take(3);
    c.close();
    await c.closed;
  };
  /** An upgrade the api refuses before the socket opens: its status, Retry-After and body. */
  const refused = (url: string, address: string) =>
    new Promise<{ status: number; retryAfter: string | undefined; body: unknown }>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: from(address) });
      ws.once('open', () => reject(new Error('the upgrade was served')));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(text) }));
      });
    });

  beforeAll(async () => {
    limited = await startTestApp({
      config: { TRUST_PROXY: 'true', RATE_LIMIT_PER_ADDRESS: '8', WEBCHAT_SESSIONS_PER_ADDRESS: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' },
    });
    limitedFlow = (await importFlow(limited.db, workspaceId, { name: 'Limited', publicChat: true, ownerName: 'Ava', graph })).id;
  });
  afterAll(() => limited?.close());

  test('connects to session/null count as new chats, with POST /webchat/session; a connect that says nothing stores nothing', async () => {
    const address = someAddress();
    const post = () =>
      limited.request('POST', '/webchat/session', { body: { record: { phone: '17145550199' }, flow_id: limitedFlow }, headers: from(address) });
    expect((await post()).status).toBe(200);
    await served(urlOf(limited, limitedFlow, 'null'), address);
    await served(urlOf(limited, limitedFlow, 'null'), address);
    expect(await refused(urlOf(limited, limitedFlow, 'null'), address)).toEqual({
      status: 429,
      retryAfter: expect.stringMatching(/^\d+$/),
      body: { status: 'failed', message: expect.stringMatching(/^Too many requests: at most 3 per 3600 s per client address/) },
    });
    expect((await post()).status).toBe(429);
    // Only the POST stored a session: the two connects said nothing, and their session ids are unknown.
    expect(await sessionsOf(limitedFlow)).toBe(1);
    const { session } = await storedSession();
    await served(urlOf(limited, flowId, session), address);
    await served(urlOf(limited, limitedFlow, 'null'), someAddress());
  });

  test('every upgrade counts against the per-address limit the HTTP requests count against', async () => {
    const address = someAddress();
    const { session } = await storedSession();
    for (let i = 0; i < 4; i++) {
      expect((await limited.request('GET', '/webchat/widget.js', { headers: from(address) })).status).toBe(200);
      await served(urlOf(limited, flowId, session), address);
    }
    expect(await refused(urlOf(limited, flowId, session), address)).toMatchObject({
      status: 429,
      body: { status: 'failed', message: expect.stringMatching(/^Too many requests: at most 8 per 3600 s per client address/) },
    });
    expect((await limited.request('GET', '/webchat/widget.js', { headers: from(address) })).status).toBe(429);
    await served(urlOf(limited, flowId, session), someAddress());
  });

  test('150 concurrent connects from one address: WEBCHAT_SOCKETS_PER_ADDRESS are served, the rest refused, no session stored', async () => {
    const capped = await startTestApp({ config: { TRUST_PROXY: 'true', WEBCHAT_SOCKETS_PER_ADDRESS: '20' } });
    try {
      const flow = (await importFlow(capped.db, workspaceId, { name: 'Capped', publicChat: true, ownerName: 'Ava', graph })).id;
      const address = someAddress();
      const clients = Array.from({ length: 150 }, () => new ChatClient(urlOf(capped, flow, 'null'), from(address)));
      const outcomes = await Promise.all(
        clients.map((c) =>
          c.opened.then(
            () => 'open',
            (err: Error) => err.message,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'open')).toHaveLength(20);
      expect(outcomes.filter((o) => o === 'upgrade refused: 429')).toHaveLength(130);
      const open = clients.filter((_, i) => outcomes[i] === 'open');
      for (const c of open) expect((await c.take(3)).map((f) => f.type)).toEqual(['session', 'chatowner', 'message']);
      expect(await refused(urlOf(capped, flow, 'null'), address)).toEqual({
        status: 429,
        retryAfter: '5',
        body: { status: 'failed', message: 'Too many open chat sockets: at most 20 per client address' },
      });
      await served(urlOf(capped, flow, 'null'), someAddress());
      expect(await sessionsOf(flow)).toBe(0);
      // Closed sockets free their places.
      for (const c of open) c.close();
      await Promise.all(open.map((c) => c.closed));
      const again = await eventually(
        async () => {
          const c = new ChatClient(urlOf(capped, flow, 'null'), from(address));
          return c.opened.then(
            () => c,
            () => false as const,
          );
        },
        30_000,
        'a place under the cap',
      );
      again.close();
    } finally {
      await capped.close();
    }
  });

  test('a reconnect to a conversation that said nothing finds no session (4404): the widget starts a new one', async () => {
    const c = new ChatClient(urlOf(limited, limitedFlow, 'null'), from(someAddress()));
    const [session] = await c.take(3);
    c.close();
    await c.closed;
    const back = new ChatClient(urlOf(limited, limitedFlow, session!.session_id as string, true), from(someAddress()));
    expect(await back.closed).toEqual({ code: 4404, reason: 'Unknown session' });
  });
});
