// The chat paths scripts/record-chat-fixtures.ts records: each drives real chatSession runs on the test stack through
// the api's own Conversation (the code the WebSocket uses) and names the run whose history becomes
// test/fixtures/chat-history-<name>.json.
import { randomUUID } from 'node:crypto';
import { parseFlowGraph } from '../src/chat/flow-schema';
import type { Config } from '../src/core/config';
import { findChatSession, findFlow, type ChatSessionRow, type FlowRow } from '../src/chat/db/chat';
import { importFlow } from '../src/chat/db/flows';
import { chatWorkflowId } from '../src/temporal/ids';
import { Conversation } from '../src/chat/webchat/conversation';
import { openNewConversation } from '../src/chat/webchat/opening';
import { createLogger } from '../src/telemetry/log';
import type { TestApp } from '../test/helpers/stack';
import type { RecordedRun } from './journey-fixture-helpers';

/** The stack a path runs on and the url of the local OpenAI-compatible fake the openai path talks to. */
export interface ChatPathContext {
  app: TestApp;
  modelUrl: string;
}

/** Asks, validates and re-asks, captures, decides on a captured value, answers by model in a loop, ends. */
export const conversationGraph = {
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
    {
      id: 'bye_check',
      type: 'decision',
      branches: [
        { when: { keywords: ['bye'] }, next: 'end' },
        { when: { classification: 'angry' }, next: 'end' },
      ],
      otherwise: 'help',
    },
    { id: 'end', type: 'end', text: 'Goodbye!' },
  ],
};

/** Two questions then the end: short conversations for the idle, resume and continue-as-new paths. */
const shortGraph = {
  nodes: [
    { id: 'start', type: 'start', next: 'a' },
    { id: 'a', type: 'question', text: 'First name?', field: 'first_name', next: 'b' },
    { id: 'b', type: 'question', text: 'Last name?', field: 'last_name', next: 'c' },
    { id: 'c', type: 'question', text: 'Company?', field: 'company', next: 'end' },
    { id: 'end', type: 'end' },
  ],
};

const flowOf = async (ctx: ChatPathContext, graph: unknown): Promise<{ workspaceId: string; apiKey: string; flow: FlowRow }> => {
  const ws = await ctx.app.newWorkspace();
  const { id } = await importFlow(ctx.app.db, ws.workspaceId, { name: 'fixture', publicChat: true, ownerName: 'Ava', graph: parseFlowGraph(graph) });
  return { ...ws, flow: (await findFlow(ctx.app.db, id))! };
};

/** The api's conversation object for a session, with configuration overrides (idle time, updates per run, model). */
const conversation = (ctx: ChatPathContext, session: ChatSessionRow, flow: FlowRow, config: Partial<Config>, noRunYet = false) =>
  new Conversation({ config: { ...ctx.app.config, ...config }, db: ctx.app.db, temporal: ctx.app.temporal }, session, flow, noRunYet);

/** A new anonymous conversation opened by the api (as on a `null` connect), and its Conversation. */
async function anonymous(ctx: ChatPathContext, graph: unknown, config: Partial<Config>) {
  const { flow } = await flowOf(ctx, graph);
  const id = `webchat-session.${randomUUID()}`;
  // Stored as a connect's first message stores it.
  await (await openNewConversation(ctx.app.db, createLogger('silent', 'fixtures'), id, flow)).store();
  const session = (await findChatSession(ctx.app.db, id))!;
  return { session, chat: conversation(ctx, session, flow, config, true) };
}

const handleOf = (ctx: ChatPathContext, sessionId: string) => ctx.app.temporal.client.workflow.getHandle(chatWorkflowId(sessionId));
const runOf = async (ctx: ChatPathContext, sessionId: string): Promise<RecordedRun> => ({
  workflowId: chatWorkflowId(sessionId),
  runId: (await handleOf(ctx, sessionId).describe()).runId,
});
const scripted: Partial<Config> = { CHAT_MODEL_BASE_URL: undefined };

/** Sends each text and checks each turn's replies contain the expected text. */
async function say(chat: Conversation, turns: [string, string][]): Promise<void> {
  for (const [text, expected] of turns) {
    const turn = await chat.send(randomUUID(), text);
    const got = turn.replies.map((r) => r.content).join(' | ');
    if (!got.includes(expected)) throw new Error(`after "${text}" expected "${expected}…", got "${got}"`);
  }
}

/** Every path, by fixture name. */
export const chatPaths: Record<string, (ctx: ChatPathContext) => Promise<RecordedRun>> = {
  /** A lead's session opened by the `open` Update; question, invalid answer and re-ask, choice, decision, skipped automation, scripted ai_reply, end. */
  async conversation(ctx) {
    const { apiKey, flow } = await flowOf(ctx, conversationGraph);
    const fields = await ctx.app.request('PUT', '/v1/lead/custom-fields', { key: apiKey, body: { fields: [{ key: 'plan' }] } });
    if (fields.status !== 200) throw new Error(`custom fields: ${fields.status}`);
    const res = await ctx.app.request('POST', '/webchat/session', {
      key: apiKey,
      body: { record: { phone: '+17145550199', first_name: 'Ann' }, flow_id: flow.id },
    });
    if (res.status !== 200) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
    const session = (await findChatSession(ctx.app.db, res.body.session))!;
    const chat = conversation(ctx, session, flow, scripted);
    const opening = await chat.open();
    if (opening.replies.length !== 2) throw new Error(`opening: ${JSON.stringify(opening)}`);
    await say(chat, [
      ['not an email', 'That does not look like a valid email'],
      ['ann@example.com', 'Which plan'],
      ['gold', 'Basic or pro'],
      ['pro', 'Pro includes priority support.'],
      ['when are you open?', ''],
      ['thanks, bye', 'Goodbye!'],
    ]);
    await handleOf(ctx, session.id).result();
    return runOf(ctx, session.id);
  },

  /**
   * The conversation path once automation nodes run (patch chat-automation): the lead's data is read and the hubspot
   * action runs as a child automationRun (it fails: the workspace has no hubspot connection; the flow goes on).
   */
  async automation(ctx) {
    const { apiKey, flow } = await flowOf(ctx, conversationGraph);
    const fields = await ctx.app.request('PUT', '/v1/lead/custom-fields', { key: apiKey, body: { fields: [{ key: 'plan' }] } });
    if (fields.status !== 200) throw new Error(`custom fields: ${fields.status}`);
    const res = await ctx.app.request('POST', '/webchat/session', {
      key: apiKey,
      body: { record: { phone: '+17145550198', first_name: 'Bo' }, flow_id: flow.id },
    });
    if (res.status !== 200) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
    const session = (await findChatSession(ctx.app.db, res.body.session))!;
    const chat = conversation(ctx, session, flow, scripted);
    await chat.open();
    await say(chat, [
      ['bo@example.com', 'Which plan'],
      ['pro', 'Pro includes priority support.'],
      ['bye', 'Goodbye!'],
    ]);
    await handleOf(ctx, session.id).result();
    return runOf(ctx, session.id);
  },

  /** ai_reply and a classification decision through the model's local activities (a local OpenAI-compatible fake). */
  async 'model-activities'(ctx) {
    const { session, chat } = await anonymous(ctx, conversationGraph, { CHAT_MODEL_BASE_URL: ctx.modelUrl, CHAT_MODEL_API_KEY: 'sk-fixture' });
    await say(chat, [
      ['ann@example.com', 'Which plan'],
      ['basic', 'Ask me anything.'],
      ['what are your hours?', 'model says'],
      ['bye', 'Goodbye!'],
    ]);
    await handleOf(ctx, session.id).result();
    return runOf(ctx, session.id);
  },

  /** No message within CHAT_IDLE_MS: the idle timer ends the run (real time: 2 s). */
  async idle(ctx) {
    const { session, chat } = await anonymous(ctx, shortGraph, { ...scripted, CHAT_IDLE_MS: 2000 });
    await say(chat, [['Ann', 'Last name?']]);
    await handleOf(ctx, session.id).result();
    return runOf(ctx, session.id);
  },

  /** A conversation whose run ended idle comes back in a new run from the state stored in Postgres, and ends. */
  async resumed(ctx) {
    const { session, chat } = await anonymous(ctx, shortGraph, { ...scripted, CHAT_IDLE_MS: 2000 });
    await say(chat, [['Ann', 'Last name?']]);
    const first = await runOf(ctx, session.id);
    await handleOf(ctx, session.id).result();
    await say(chat, [
      ['Lee', 'Company?'],
      ['Acme', 'Flow has ended'],
    ]);
    await handleOf(ctx, session.id).result();
    const second = await runOf(ctx, session.id);
    if (second.runId === first.runId) throw new Error('the resume did not start a new run');
    return second;
  },

  /** Turns 1.2 s apart (real time): the write waits for a 2 s pause, its timer re-armed once (patch chat-write-after-pause). */
  async 'paused-writes'(ctx) {
    const { session, chat } = await anonymous(ctx, shortGraph, { ...scripted, CHAT_IDLE_MS: 5000 });
    await say(chat, [['Ann', 'Last name?']]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await say(chat, [['Lee', 'Company?']]);
    await handleOf(ctx, session.id).result();
    return runOf(ctx, session.id);
  },

  /** CHAT_UPDATES_PER_RUN 2: the run continues as new after two messages, carrying the conversation. */
  async 'continue-as-new'(ctx) {
    const { session, chat } = await anonymous(ctx, shortGraph, { ...scripted, CHAT_UPDATES_PER_RUN: 2 });
    await say(chat, [['Ann', 'Last name?']]);
    const first = await runOf(ctx, session.id);
    await say(chat, [
      ['Lee', 'Company?'],
      ['Acme', 'Flow has ended'],
    ]);
    await handleOf(ctx, session.id).result();
    if ((await runOf(ctx, session.id)).runId === first.runId) throw new Error('the run did not continue as new');
    return first;
  },
};
