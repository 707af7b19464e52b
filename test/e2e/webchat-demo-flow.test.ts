import { demoFlowGraph } from '../../src/cli/demo';
import { importFlow } from '../../src/chat/db/flows';
import { ChatClient, type Frame } from '../helpers/chat-client';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(180_000);

// The demo's chat flow on the scripted model (no CHAT_MODEL_BASE_URL): answers come from the flow's facts.
let app: TestApp;
let flowId: string;
const reply = demoFlowGraph.nodes.find((n) => n.type === 'ai_reply') as { prompt: string; facts: string[] };
const [whatItDoes, pricing] = reply.facts as [string, string];

beforeAll(async () => {
  app = await startTestApp({ workers: true });
  const ws = await app.newWorkspace();
  flowId = (await importFlow(app.db, ws.workspaceId, { name: 'Demo chat', publicChat: true, ownerName: 'Ava', graph: demoFlowGraph })).id;
});

afterAll(async () => {
  await app?.close();
});

const bot = (frames: Frame[]) => frames.filter((f) => f.type === 'message').map((f) => f.content as string);

/** Says text and returns the bot's messages of that turn (the user's message echoes first as `recv`). */
async function ask(c: ChatClient, text: string, replies: number): Promise<string[]> {
  c.say(text);
  const frames = await c.take(1 + replies);
  expect(frames[0]).toMatchObject({ type: 'recv', content: text });
  return bot(frames);
}

test('the demo bot answers questions from its facts, never with its instructions', async () => {
  const c = new ChatClient(`${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/null/r/false`);
  expect(bot(await c.take(4))).toEqual(['Hi! I am Ava from Switchboard.', 'What is your email address?']);
  expect(await ask(c, 'ann@example.com', 1)).toEqual(['Thanks! What would you like to know?']);

  const answers = {
    cost: await ask(c, 'How much does it cost?', 1),
    pricing: await ask(c, 'Is there a free trial?', 1),
    booking: await ask(c, 'Can I book a call on Monday?', 1),
    product: await ask(c, 'What does Switchboard do?', 1),
    other: await ask(c, 'Do you like jazz?', 1),
  };
  expect(answers).toEqual({
    cost: [pricing],
    pricing: [pricing],
    booking: [pricing],
    product: [whatItDoes],
    other: [`I am not sure about that. What I can tell you: ${whatItDoes}`],
  });
  for (const said of Object.values(answers).flat()) expect(said).not.toContain(reply.prompt);

  // "thanks" is answered in kind, then the flow's decision ends the chat.
  expect(await ask(c, 'thanks', 2)).toEqual(['You are welcome! Anything else I can help with?', 'Thanks for chatting!']);
  c.close();
});

test('"bye" gets a goodbye, not the prompt', async () => {
  const c = new ChatClient(`${app.url.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/null/r/false`);
  await c.take(4);
  await ask(c, 'bo@example.com', 1);
  expect(await ask(c, 'bye', 2)).toEqual(['Goodbye, and thanks for stopping by!', 'Thanks for chatting!']);
  c.close();
});
