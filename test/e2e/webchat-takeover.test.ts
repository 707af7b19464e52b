// Issue 22, finding 1: an anonymous chat visitor who knows a lead's phone must not read that lead, change it, or run
// a flow's automation with its stored data. Only a session created with the workspace's API key is the lead's.
import { randomUUID } from 'node:crypto';
import { parseFlowGraph } from '../../src/chat/flow-schema';
import { migrate } from '../../src/db/migrate';
import { chatAutomations } from '../../src/chat/db/chat';
import { importFlow } from '../../src/chat/db/flows';
import { chatWorkflowId } from '../../src/temporal/ids';
import { ChatClient, type Frame } from '../helpers/chat-client';
import { startTestApp, type TestApp } from '../helpers/stack';
import { databaseMigratedBefore } from '../helpers/scratch-db';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(240_000);

const PHONE = '17145550177';
const STORED = { phone: PHONE, first_name: 'Victoria', last_name: 'Stored', email: 'victoria@stored.example', company: 'StoredCo' };

let app: TestApp;
let fake: VendorFake;
let ws: { workspaceId: string; apiKey: string };
let flowId: string;

// The CRM node sends the captured email and company and the lead's last name (a field the chat never asks).
const graph = () => ({
  nodes: [
    { id: 'start', type: 'start', next: 'ask_email' },
    { id: 'ask_email', type: 'question', text: 'What is your email?', field: 'email', validate: 'email', next: 'ask_company' },
    { id: 'ask_company', type: 'question', text: 'Your company?', field: 'company', next: 'crm' },
    {
      id: 'crm',
      type: 'automation',
      integration: 'proxy',
      action: 'request',
      params: {
        apiMethod: 'POST',
        apiURL: `${fake.url}/crm`,
        requestBodyJson: { company: 'company', email: 'email', surname: 'last_name' },
        customFields: ['company', 'email', 'surname'].map((f) => ({ field: `requestBodyJson.${f}`, customFieldEnabled: true })),
      },
      next: 'saved',
      on_failure: 'not_saved',
    },
    { id: 'saved', type: 'message', text: 'Saved.', next: 'end' },
    { id: 'not_saved', type: 'message', text: 'Not saved.', next: 'end' },
    { id: 'end', type: 'end' },
  ],
});

beforeAll(async () => {
  fake = await startVendorFake();
  fake.on('POST', '/crm', () => ({ status: 201, body: { id: 'c1' } }));
  app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  ws = await app.newWorkspace();
  expect((await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: STORED })).status).toBe(200);
  flowId = (await importFlow(app.db, ws.workspaceId, { name: 'takeover', publicChat: true, ownerName: 'Ava', graph: parseFlowGraph(graph()) })).id;
});

afterAll(async () => {
  await app?.close();
  await fake?.stop();
});

const wsUrl = (session: string) => `${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/${session}/r/false`;
const contents = (frames: Frame[]) => frames.map((f) => `${f.type}:${f.content ?? ''}`);
const storedLead = async () => (await app.request('GET', `/v1/lead/get?phone=${PHONE}`, { key: ws.apiKey })).body;
const crmBodies = () => fake.received('POST', '/crm').map((r) => r.body as Record<string, unknown>);

/** Runs the whole flow: email, then company; returns every frame after the opening. The run has ended (all stored). */
async function chat(session: string, email: string, company: string): Promise<Frame[]> {
  const c = new ChatClient(wsUrl(session));
  const opening = await c.take(3);
  expect(contents(opening).slice(2)).toEqual(['message:What is your email?']);
  c.say(email);
  const frames = [...opening, ...(await c.take(2))];
  c.say(company);
  frames.push(...(await c.until('end')));
  await app.temporal.client.workflow.getHandle(chatWorkflowId(session)).result();
  return frames;
}

test("an anonymous session with a lead's phone neither reads nor changes that lead, and its automation sees none of its data", async () => {
  const res = await app.request('POST', '/webchat/session', { body: { record: { phone: '+1 714 555 0177', first_name: 'Mallory' }, flow_id: flowId } });
  expect(res.status).toBe(200);
  const session = res.body.session as string;
  const frames = await chat(session, 'mallory@evil.example', 'EvilCo');
  // No stored data is echoed: the visitor is "Anonymous".
  expect(frames.filter((f) => f.type === 'recv').map((f) => f.name)).toEqual(['Anonymous', 'Anonymous']);
  for (const value of Object.values(STORED).filter((v) => v !== PHONE)) expect(JSON.stringify(frames)).not.toContain(value);
  // The automation ran without the lead: the lead's last name is not among its fields, so the action failed unsent.
  expect(contents(frames).slice(-3)).toEqual(['message:Not saved.', 'message:Flow has ended', 'end:']);
  expect(await chatAutomations(app.db, session)).toMatchObject([{ node_id: 'crm', success: false, detail: expect.stringContaining('custom_field_missing') }]);
  expect(crmBodies().filter((b) => b.company === 'EvilCo')).toEqual([]);
  expect(JSON.stringify(crmBodies())).not.toContain('Stored');
  // The lead is as it was; the visitor's record and answers stay with the conversation.
  expect(await storedLead()).toMatchObject({ first_name: 'Victoria', last_name: 'Stored', email: 'victoria@stored.example', company: 'StoredCo' });
  const row = await app.db.one<{ lead_id: string | null; record: unknown }>('SELECT lead_id, record FROM chat_sessions WHERE id = $1', [session]);
  expect(row).toEqual({ lead_id: null, record: { phone: PHONE, first_name: 'Mallory' } });
});

test("a session created with the workspace's API key is the lead's: its name, its answers, its data for automations", async () => {
  const res = await app.request('POST', '/webchat/session', { key: ws.apiKey, body: { record: { phone: PHONE }, flow_id: flowId } });
  expect(res.status).toBe(200);
  const frames = await chat(res.body.session as string, 'victoria@new.example', 'TrustedCo');
  expect(frames.filter((f) => f.type === 'recv').map((f) => f.name)).toEqual(['Victoria Stored', 'Victoria Stored']);
  expect(contents(frames).slice(-3)).toEqual(['message:Saved.', 'message:Flow has ended', 'end:']);
  expect(crmBodies().filter((b) => b.company === 'TrustedCo')).toEqual([{ company: 'TrustedCo', email: 'victoria@new.example', surname: 'Stored' }]);
  expect(await storedLead()).toMatchObject({ email: 'victoria@new.example', company: 'TrustedCo', last_name: 'Stored' });
});

test("another workspace's key gets 404, an invalid key 401, an anonymous bad phone 400; none stores a session", async () => {
  const before = await app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM chat_sessions WHERE flow_id = $1', [flowId]);
  const other = await app.newWorkspace();
  const foreign = await app.request('POST', '/webchat/session', { key: other.apiKey, body: { record: { phone: PHONE }, flow_id: flowId } });
  expect(foreign.status).toBe(404);
  expect(foreign.body).toEqual({ status: 'failed', message: 'Flow not found' });
  const invalid = await app.request('POST', '/webchat/session', { key: 'sk_not_a_key', body: { record: { phone: PHONE }, flow_id: flowId } });
  expect(invalid.status).toBe(401);
  expect(invalid.body).toEqual({ status: 'failed', message: 'Unauthorized: invalid or revoked API key' });
  const bad = await app.request('POST', '/webchat/session', { body: { record: { phone: '12' }, flow_id: flowId } });
  expect(bad.status).toBe(400);
  expect(bad.body).toEqual({ status: 'failed', message: 'Could not find or create lead' });
  expect(await app.db.one('SELECT count(*)::int AS n FROM chat_sessions WHERE flow_id = $1', [flowId])).toEqual(before);
});

describe('sessions bound before sessions took a key (all of them unverified)', () => {
  test('migration 020 unbinds them and keeps the phone the visitor gave on the session', async () => {
    const { db, drop } = await databaseMigratedBefore('020_');
    try {
      const [workspace, flow, lead] = [randomUUID(), randomUUID(), randomUUID()];
      await db.query("INSERT INTO workspaces (id, name) VALUES ($1, 'w')", [workspace]);
      await db.query("INSERT INTO flows (id, workspace_id, name, owner_name, graph) VALUES ($1, $2, 'f', 'o', '{}')", [flow, workspace]);
      await db.query("INSERT INTO leads (id, workspace_id, phone, first_name) VALUES ($1, $2, '+17145550188', 'Victoria')", [lead, workspace]);
      await db.query(
        "INSERT INTO chat_sessions (id, workspace_id, flow_id, lead_id) VALUES ('webchat-session.bound', $1, $2, $3), ('webchat-session.anon', $1, $2, NULL)",
        [workspace, flow, lead],
      );
      expect(await migrate(db)).toEqual(expect.arrayContaining(['020_chat_sessions_unverified.sql']));
      expect(await db.query('SELECT id, lead_id, record FROM chat_sessions ORDER BY id')).toEqual([
        { id: 'webchat-session.anon', lead_id: null, record: null },
        { id: 'webchat-session.bound', lead_id: null, record: { phone: '+17145550188' } },
      ]);
    } finally {
      await drop();
    }
  });

  test('a run that still names the lead after its session was unbound neither captures into it nor reads it', async () => {
    const phone = '17145550178';
    expect((await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone, last_name: 'Bound', company: 'BoundCo' } })).status).toBe(200);
    const { session } = (await app.request('POST', '/webchat/session', { key: ws.apiKey, body: { record: { phone }, flow_id: flowId } })).body;
    const c = new ChatClient(wsUrl(session));
    await c.take(3);
    c.say('bound@example.com');
    expect(contents(await c.take(2))).toEqual(['recv:bound@example.com', 'message:Your company?']);
    const lead = async () => (await app.request('GET', `/v1/lead/get?phone=${phone}`, { key: ws.apiKey })).body;
    await eventually(async () => (await lead()).email === 'bound@example.com', 30_000, 'the bound chat capturing into its lead');
    // What migration 020 does to a session bound before this change, while its run is open.
    await app.db.query('UPDATE chat_sessions SET lead_id = NULL WHERE id = $1', [session]);
    c.say('LegacyCo');
    expect(contents(await c.until('end')).slice(-3)).toEqual(['message:Not saved.', 'message:Flow has ended', 'end:']);
    await app.temporal.client.workflow.getHandle(chatWorkflowId(session)).result();
    expect(await chatAutomations(app.db, session)).toMatchObject([{ success: false, detail: expect.stringContaining('custom_field_missing') }]);
    expect(crmBodies().filter((b) => b.company === 'LegacyCo')).toEqual([]);
    expect(await lead()).toMatchObject({ email: 'bound@example.com', company: 'BoundCo', last_name: 'Bound' });
  });
});
