// A chat session's idle end, on Temporal's time-skipping test server: the idle timer fires without real waiting; the
// conversation then resumes in a new run from the state stored in Postgres.
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { createActivities } from '../../activities';
import { parseFlowGraph } from '../../src/chat/flow-schema';
import { createDb, type Db } from '../../src/db/pool';
import { chatMessagesAfter, createChatSession, findChatSession } from '../../src/chat/db/chat';
import { importFlow } from '../../src/chat/db/flows';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { createLogger } from '../../src/telemetry/log';
import { chatWorkflowId } from '../../src/temporal/ids';
import { activityBoundary } from '../../worker/activity-errors';
import { chatMessageUpdate, chatOpenUpdate, type ChatCarried, type ChatInput } from '../../workflows/chat/chat-messages';
import { testEnv } from '../helpers/env';
import { startTimeSkipping } from '../helpers/time-skipping';

jest.setTimeout(600_000);

const graph = parseFlowGraph({
  nodes: [
    { id: 'start', type: 'start', next: 'a' },
    { id: 'a', type: 'question', text: 'First?', field: 'first_name', next: 'b' },
    { id: 'b', type: 'question', text: 'Last?', field: 'last_name', next: 'end' },
    { id: 'end', type: 'end' },
  ],
});

let env: TestWorkflowEnvironment;
let db: Db;
let worker: Worker;
let running: Promise<void>;
const queue = `idle${randomBytes(4).toString('hex')}-chat`;

beforeAll(async () => {
  env = await startTimeSkipping({ initialTime: '2030-01-07T00:00:00Z' });
  const logger = createLogger('silent', 'idle-test');
  db = createDb(testEnv('databaseUrl'), { max: 5, logger });
  worker = await Worker.create({
    connection: env.nativeConnection,
    dataConverter: env.client.options.dataConverter,
    taskQueue: queue,
    workflowBundle: { codePath: testEnv('bundlePath') },
    activities: createActivities({ db, logger }),
    interceptors: { activity: [activityBoundary] },
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await db?.close();
  await env?.teardown();
});

test('an idle session ends after CHAT_IDLE_MS and resumes later from Postgres with its context', async () => {
  const ws = await createWorkspace(db, { name: `idle ${randomBytes(3).toString('hex')}` });
  const flow = await importFlow(db, ws.id, { name: 'idle', publicChat: true, ownerName: 'Ava', graph });
  const sessionId = `webchat-session.${randomUUID()}`;
  await createChatSession(db, { id: sessionId, workspaceId: ws.id, flowId: flow.id, leadId: null });
  const input: ChatInput = { sessionId, workspaceId: ws.id, flowId: flow.id, graph, model: 'scripted', idleMs: 30 * 60_000, updatesPerRun: 1000 };
  const workflowId = chatWorkflowId(sessionId);
  const first = await env.client.workflow.start('chatSession', { taskQueue: queue, workflowId, args: [input] });
  expect((await first.executeUpdate(chatOpenUpdate)).replies.map((r) => r.content)).toEqual(['First?']);
  expect((await first.executeUpdate(chatMessageUpdate, { args: [{ id: randomUUID(), text: 'Ann' }] })).replies.map((r) => r.content)).toEqual(['Last?']);
  // Awaiting the result through the environment's client skips the idle timer: the run ends on its own.
  const before = await env.currentTimeMs();
  await first.result();
  expect(await env.currentTimeMs()).toBeGreaterThanOrEqual(before + 30 * 60_000);

  const stored = (await findChatSession(db, sessionId))!.state as ChatCarried;
  expect(stored.engine.at).toBe('b');
  const second = await env.client.workflow.start('chatSession', { taskQueue: queue, workflowId, args: [{ ...input, resume: stored }] });
  const turn = await second.executeUpdate(chatMessageUpdate, { args: [{ id: randomUUID(), text: 'Lee' }] });
  expect(turn.replies.map((r) => r.content)).toEqual(['Flow has ended']);
  expect(turn.ended).toBe(true);
  // The run ends once its last turn is stored (the write follows the reply).
  await second.result();
  const messages = await chatMessagesAfter(db, sessionId, 0);
  expect(messages.map((m) => [m.seq, m.sender, m.content])).toEqual([
    [1, 'bot', 'First?'],
    [2, 'user', 'Ann'],
    [3, 'bot', 'Last?'],
    [4, 'user', 'Lee'],
    [5, 'bot', 'Flow has ended'],
  ]);
});
