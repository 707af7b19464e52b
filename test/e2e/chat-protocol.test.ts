import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { importFlow } from '../../src/chat/db/flows';
import { ChatClient, type Frame } from '../helpers/chat-client';
import { eventually } from '../helpers/webhook-receiver';
import { startTestApp, type TestApp } from '../helpers/stack';

const asyncApiSchemas = require('@asyncapi/specs').schemas as Record<string, object>;

jest.setTimeout(240_000);

const graph = {
  nodes: [
    { id: 'start', type: 'start', next: 'hello' },
    { id: 'hello', type: 'message', text: 'Welcome.', next: 'ask' },
    {
      id: 'ask',
      type: 'question',
      text: 'Your plan: basic or pro?',
      field: 'plan',
      validate: 'choice',
      choices: ['basic', 'pro'],
      reask: 'Basic or pro, please.',
      next: 'end',
    },
    { id: 'end', type: 'end', text: 'Goodbye!' },
  ],
};

let app: TestApp;
let ws: { workspaceId: string; apiKey: string };
let flowId: string;
let doc: any;
const wsUrl = (session: string) => `${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/${session}/r/false`;

beforeAll(async () => {
  app = await startTestApp({ workers: true });
  ws = await app.newWorkspace();
  flowId = (await importFlow(app.db, ws.workspaceId, { name: 'Plans', publicChat: true, ownerName: 'Ava', ownerPicture: 'https://example.com/ava.png', graph }))
    .id;
  const res = await app.request('GET', '/v1/asyncapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(async () => {
  await app?.close();
});

/** The document's messages of one direction by frame type, each with its payload schema compiled. */
function messages(prefix: 'client' | 'server') {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  const out = new Map<string, (frame: unknown) => boolean>();
  for (const [key, m] of Object.entries<any>(doc.channels.conversation.messages)) {
    if (key.startsWith(`${prefix}_`)) out.set(m.name, ajv.compile(m.payload));
  }
  return out;
}

describe('the AsyncAPI document of the chat WebSocket', () => {
  test('is a valid AsyncAPI 3.0 document (and the validator refuses a broken one)', () => {
    // The AsyncAPI schema embeds the draft-07 meta-schema itself: Ajv's own copy is left out.
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false, meta: false, validateSchema: false }));
    const validate = ajv.compile(asyncApiSchemas['3.0.0']!);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    const broken = { ...doc, operations: { ...doc.operations, sendServerFrames: { ...doc.operations.sendServerFrames, action: 'publish' } } };
    expect(validate(broken)).toBe(false);
  });

  test('every operation names the channel and only messages of it', () => {
    expect(
      Object.values<any>(doc.operations)
        .map((o) => o.action)
        .sort(),
    ).toEqual(['receive', 'send']);
    for (const op of Object.values<any>(doc.operations)) {
      expect(op.channel).toEqual({ $ref: '#/channels/conversation' });
      for (const m of op.messages) expect(doc.channels.conversation.messages[m.$ref.split('/').at(-1)]).toBeDefined();
    }
  });

  test("a real conversation's frames, both ways, are the document's messages, and every server message is sent", async () => {
    const server = messages('server');
    const client = messages('client');
    const seen: Frame[] = [];
    const c = new ChatClient(wsUrl('null'));
    const say = (frame: Record<string, unknown>) => {
      const type = String(frame.type);
      expect({ type, valid: client.get(type)?.(frame) }).toEqual({ type, valid: true });
      c.send(frame);
    };
    seen.push(...(await c.until('message')), ...(await c.take(1)));
    say({ type: 'ping' });
    seen.push(await c.next());
    say({ type: 'typing', message: true });
    say({ type: 'heartbeat' });
    c.send({ type: 'shout' });
    seen.push(await c.next());
    say({ type: 'message', message: 'enterprise' });
    seen.push(...(await c.take(2)));
    say({ type: 'message', message: 'pro' });
    seen.push(...(await c.until('end')));
    await c.closed;

    for (const frame of seen) expect({ frame, valid: server.get(frame.type)?.(frame) }).toEqual({ frame, valid: true });
    expect([...new Set(seen.map((f) => f.type))].sort()).toEqual([...server.keys()].sort());
    // A frame the document does not describe fails its message's schema.
    expect(server.get('message')!({ type: 'message', content: 'no id' })).toBe(false);
  });
});

describe('GET /v1/chat/sessions and /v1/chat/sessions/{session}/messages', () => {
  test("a lead's conversations and their transcripts, paged; another workspace's are 404 or absent", async () => {
    const made = await app.request('POST', '/webchat/session', {
      key: ws.apiKey,
      body: { record: { phone: '+1 714 555 0160', first_name: 'Ann' }, flow_id: flowId },
    });
    expect(made.status).toBe(200);
    const lead = await app.request('GET', '/v1/lead/get?phone=17145550160', { key: ws.apiKey });
    const c = new ChatClient(wsUrl(made.body.session));
    await c.until('message');
    await c.take(1);
    c.say('pro');
    await c.until('end');

    const path = `/v1/chat/sessions/${made.body.session}/messages`;
    const all = await eventually(
      async () => {
        const r = await app.request('GET', path, { key: ws.apiKey });
        return r.body.messages?.length === 5 && r.body;
      },
      30_000,
      'the stored transcript',
    );
    expect(all.messages.map((m: any) => `${m.sender}:${m.content}`)).toEqual([
      'bot:Welcome.',
      'bot:Your plan: basic or pro?',
      'user:pro',
      'bot:Goodbye!',
      'bot:Flow has ended',
    ]);
    const listed = await app.request('GET', `/v1/chat/sessions?lead_id=${lead.body.lead_id}`, { key: ws.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      status: 'success',
      sessions: [{ session: made.body.session, flow_id: flowId, lead_id: lead.body.lead_id, created_at: expect.any(String), ended: true }],
      next_cursor: null,
    });

    const first = await app.request('GET', `${path}?limit=3`, { key: ws.apiKey });
    expect(first.body.messages).toEqual(all.messages.slice(0, 3));
    const rest = await app.request('GET', `${path}?limit=3&cursor=${first.body.next_cursor}`, { key: ws.apiKey });
    expect(rest.body).toEqual({ status: 'success', session: made.body.session, messages: all.messages.slice(3), next_cursor: null });

    const other = await app.newWorkspace();
    expect(await app.request('GET', path, { key: other.apiKey })).toMatchObject({ status: 404, body: { status: 'failed', message: 'Chat session not found' } });
    expect((await app.request('GET', `/v1/chat/sessions?lead_id=${lead.body.lead_id}`, { key: other.apiKey })).body.sessions).toEqual([]);
    expect((await app.request('GET', '/v1/chat/sessions/nope/messages', { key: ws.apiKey })).status).toBe(404);
    expect((await app.request('GET', `${path}?cursor=x`, { key: ws.apiKey })).status).toBe(400);
    expect((await app.request('GET', '/v1/chat/sessions?lead_id=x', { key: ws.apiKey })).body).toEqual({
      status: 'failed',
      message: expect.stringContaining('lead_id'),
    });
  });
});
