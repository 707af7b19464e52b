import { randomUUID } from 'node:crypto';
import { advance, initialEngineState, type EngineEffects } from '../chat/engine';
import { parseFlowGraph } from '../chat/flow-schema';
import type { Db } from '../db/pool';
import { createChatSession, createOpenedChatSession, type FlowRow } from '../db/repos/chat';
import type { Logger } from '../log';
import type { ChatCarried, ChatMessage, ChatTurn } from '../../workflows/chat-messages';

/** The opening reaches an automation node: it needs the workflow (the action runs there). */
class OpeningNeedsRun extends Error {}

// The opening feeds no input, so the engine never asks the model (reply and classify need a user message).
const noModel: EngineEffects = {
  reply: () => Promise.reject(new Error('the opening does not call the model')),
  classify: () => Promise.reject(new Error('the opening does not call the model')),
  automation: () => Promise.reject(new OpeningNeedsRun()),
};

/**
 * Creates a new anonymous conversation already opened: the flow's opening runs here (pure, no model) and is stored
 * with the session in one statement, so the three opening frames wait on Postgres only. The chatSession run starts
 * with the first user message, from this stored state (the resume path). An opening that reaches an automation node
 * is left to the run: the session is stored unopened and undefined returned.
 */
export async function createOpenedSession(db: Db, log: Logger, sessionId: string, flow: FlowRow): Promise<ChatTurn | undefined> {
  const carried: ChatCarried = { engine: initialEngineState(), seq: 0, opened: true };
  let outcome;
  try {
    outcome = await advance(parseFlowGraph(flow.graph), carried.engine, undefined, noModel);
  } catch (err) {
    if (!(err instanceof OpeningNeedsRun)) throw err;
    // Stored unopened: the connection opens it through the workflow (the `open` Update), which runs the action.
    await createChatSession(db, { id: sessionId, workspaceId: flow.workspace_id, flowId: flow.id, leadId: null });
    return undefined;
  }
  const replies = outcome.replies.map((content): ChatMessage => ({ id: randomUUID(), seq: ++carried.seq, sender: 'bot', content }));
  await createOpenedChatSession(db, { id: sessionId, workspaceId: flow.workspace_id, flowId: flow.id, leadId: null, state: carried, messages: replies });
  for (const s of outcome.skipped) log.info({ sessionId, node: s.node, reason: s.reason }, 'chat automation node skipped');
  return { replies, ended: carried.engine.ended };
}
