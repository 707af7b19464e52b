import { randomUUID } from 'node:crypto';
import { advance, initialEngineState, type EngineEffects } from '../chat/engine';
import { parseFlowGraph } from '../chat/flow-schema';
import type { Db } from '../db/pool';
import { createOpenedChatSession, type FlowRow } from '../db/repos/chat';
import type { Logger } from '../log';
import type { ChatCarried, ChatMessage, ChatTurn } from '../../workflows/chat-messages';

// The opening feeds no input, so the engine never asks the model (reply and classify need a user message).
const noModel: EngineEffects = {
  reply: () => Promise.reject(new Error('the opening does not call the model')),
  classify: () => Promise.reject(new Error('the opening does not call the model')),
};

/**
 * Creates a new anonymous conversation already opened: the flow's opening runs here (pure, no model) and is stored
 * with the session in one statement, so the three opening frames wait on Postgres only. The chatSession run starts
 * with the first user message, from this stored state (the resume path).
 */
export async function createOpenedSession(db: Db, log: Logger, sessionId: string, flow: FlowRow): Promise<ChatTurn> {
  const carried: ChatCarried = { engine: initialEngineState(), seq: 0, opened: true };
  const outcome = await advance(parseFlowGraph(flow.graph), carried.engine, undefined, noModel);
  const replies = outcome.replies.map((content): ChatMessage => ({ id: randomUUID(), seq: ++carried.seq, sender: 'bot', content }));
  await createOpenedChatSession(db, { id: sessionId, workspaceId: flow.workspace_id, flowId: flow.id, leadId: null, state: carried, messages: replies });
  for (const s of outcome.skipped) log.info({ sessionId, node: s.node, reason: s.reason }, 'chat automation node skipped');
  return { replies, ended: carried.engine.ended };
}
