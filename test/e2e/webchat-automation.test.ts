// Chat flow `automation` nodes: the action runs through automationRun with the conversation's answers (custom fields
// resolved from them), its success or failure is recorded on the conversation, and the flow goes on (on_failure
// when the action failed). Against a local fake vendor.
import { randomUUID } from 'node:crypto';
import { parseFlowGraph } from '../../src/chat/flow-schema';
import { chatAutomations, findChatSession, findFlow } from '../../src/chat/db/chat';
import { importFlow } from '../../src/chat/db/flows';
import { Conversation } from '../../src/chat/webchat/conversation';
import { ChatClient, type Frame } from '../helpers/chat-client';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(240_000);

let app: TestApp;
let fake: VendorFake;
let flowId: string;

const graph = () => ({
  nodes: [
    { id: 'start', type: 'start', next: 'ask' },
    { id: 'ask', type: 'question', text: 'Your company?', field: 'company', next: 'crm' },
    {
      id: 'crm',
      type: 'automation',
      integration: 'proxy',
      action: 'request',
      params: {
        apiMethod: 'POST',
        apiURL: `${fake.url}/crm`,
        requestBodyJson: { company: 'company', source: 'chat' },
        customFields: [{ field: 'requestBodyJson.company', customFieldEnabled: true }],
      },
      next: 'synced',
      on_failure: 'sorry',
    },
    { id: 'synced', type: 'message', text: 'You are in our CRM.', next: 'more' },
    { id: 'sorry', type: 'message', text: 'We could not save that, we will call you.', next: 'more' },
    { id: 'more', type: 'question', text: 'Anything else?', field: 'notes', next: 'end' },
    { id: 'end', type: 'end' },
  ],
});

beforeAll(async () => {
  fake = await startVendorFake();
  // The vendor refuses company "Broken".
  fake.on('POST', '/crm', (req) =>
    (req.body as { company?: string }).company === 'Broken' ? { status: 422, body: { message: 'bad company' } } : { status: 201, body: { id: 'c1' } },
  );
  app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  const ws = await app.newWorkspace();
  flowId = (await importFlow(app.db, ws.workspaceId, { name: 'crm', publicChat: true, ownerName: 'Ava', graph: parseFlowGraph(graph()) })).id;
});

afterAll(async () => {
  await app?.close();
  await fake?.stop();
});

const wsUrl = (session: string) => `${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/${session}/r/false`;
const contents = (frames: Frame[]) => frames.map((f) => `${f.type}:${f.content ?? ''}`);
const crmRequests = (company: string) => fake.received('POST', '/crm').filter((r) => (r.body as { company?: string }).company === company);
const recorded = (sid: string, n = 1) =>
  eventually(
    async () => {
      const rows = await chatAutomations(app.db, sid);
      return rows.length >= n && rows;
    },
    30_000,
    'the automation recorded on the conversation',
  );

test('the action runs with the captured answer as its custom field; success is recorded and the flow goes on', async () => {
  const c = new ChatClient(wsUrl('null'));
  const [session] = await c.take(3);
  const sid = session!.session_id as string;
  c.say('Acme');
  expect(contents(await c.take(3))).toEqual(['recv:Acme', 'message:You are in our CRM.', 'message:Anything else?']);
  const sent = crmRequests('Acme');
  expect(sent).toHaveLength(1);
  expect(sent[0]!.headers['content-type']).toContain('application/json');
  expect(sent[0]!.body).toEqual({ company: 'Acme', source: 'chat' });
  const [run] = await recorded(sid);
  expect(run).toMatchObject({ node_id: 'crm', success: true, detail: `automation ${run!.request_id}` });
  // The run is an automation run like the endpoint's, in the workspace's name.
  const handle = app.temporal.client.workflow.getHandle(`automation:${run!.request_id}`);
  expect(await handle.result()).toMatchObject({ success: true, data: expect.anything() });
  c.close();
});

test('a failed action is recorded and the flow follows on_failure; the chat goes on', async () => {
  const c = new ChatClient(wsUrl('null'));
  const [session] = await c.take(3);
  const sid = session!.session_id as string;
  c.say('Broken');
  expect(contents(await c.take(3))).toEqual(['recv:Broken', 'message:We could not save that, we will call you.', 'message:Anything else?']);
  expect(crmRequests('Broken').length).toBeGreaterThanOrEqual(1);
  const [run] = await recorded(sid);
  expect(run).toMatchObject({ node_id: 'crm', success: false, detail: expect.stringContaining('vendor_rejected') });
  c.say('no thanks');
  expect(contents(await c.take(3))).toEqual(['recv:no thanks', 'message:Flow has ended', 'end:']);
});

test('a message resent with the same id (its reply lost) is answered by the first turn: the action ran once', async () => {
  // An anonymous session stored by POST /webchat/session (a connect alone stores nothing).
  const sid = (await app.request('POST', '/webchat/session', { body: { record: { phone: '17145550160' }, flow_id: flowId } })).body.session as string;
  const conversation = new Conversation(
    { config: app.config, db: app.db, temporal: app.temporal },
    (await findChatSession(app.db, sid))!,
    (await findFlow(app.db, flowId))!,
  );
  const id = randomUUID();
  const first = await conversation.send(id, 'Once Inc');
  const again = await conversation.send(id, 'Once Inc');
  expect(again).toEqual(first);
  expect(first.replies.map((r) => r.content)).toEqual(['You are in our CRM.', 'Anything else?']);
  expect(crmRequests('Once Inc')).toHaveLength(1);
  expect(await recorded(sid)).toHaveLength(1);
});

test('an opening that reaches an automation node waits for the visitor: the first message stores the conversation and opens it in the workflow, which runs the action', async () => {
  const ws = await app.newWorkspace();
  const opening = {
    nodes: [
      { id: 'start', type: 'start', next: 'ping' },
      {
        id: 'ping',
        type: 'automation',
        integration: 'proxy',
        action: 'request',
        params: { apiMethod: 'POST', apiURL: `${fake.url}/crm`, requestBodyJson: { company: 'Opening' } },
        next: 'hello',
      },
      { id: 'hello', type: 'question', text: 'Hello! Your name?', field: 'first_name', next: 'end' },
      { id: 'end', type: 'end' },
    ],
  };
  const flow = await importFlow(app.db, ws.workspaceId, { name: 'opening', publicChat: true, ownerName: 'Ava', graph: parseFlowGraph(opening) });
  const c = new ChatClient(`${app.url.replace(/^http/, 'ws')}/webchat/flow/${flow.id}/session/null/r/false`);
  const frames = await c.take(2);
  expect(frames.map((f) => f.type)).toEqual(['session', 'chatowner']);
  const sid = frames[0]!.session_id as string;
  // The connect is complete (its frames come before the pong) and ran nothing: no action, no stored session.
  c.send({ type: 'ping' });
  expect(await c.next()).toEqual({ type: 'pong' });
  expect(crmRequests('Opening')).toHaveLength(0);
  expect(await findChatSession(app.db, sid)).toBeUndefined();
  c.say('Ann');
  expect(contents(await c.take(2))).toEqual(['recv:Ann', 'message:Hello! Your name?']);
  expect(crmRequests('Opening')).toHaveLength(1);
  expect(await recorded(sid)).toMatchObject([{ node_id: 'ping', success: true }]);
  c.close();
});
