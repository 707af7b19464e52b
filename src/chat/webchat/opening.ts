import { randomUUID } from 'node:crypto';
import { advance, initialEngineState, type EngineEffects } from '../engine';
import { parseFlowGraph } from '../flow-schema';
import type { Db } from '../../db/pool';
import { createChatSession, createOpenedChatSession, type FlowRow } from '../db/chat';
import type { Logger } from '../../telemetry/log';
import type { ChatCarried, ChatMessage, ChatTurn } from '../../../workflows/chat/chat-messages';

/** The opening reaches an automation node: it needs the workflow (the action runs there). */
class OpeningNeedsRun extends Error {}

// The opening feeds no input, so the engine never asks the model (reply and classify need a user message).
const noModel: EngineEffects = {
  reply: () => Promise.reject(new Error('the opening does not call the model')),
  classify: () => Promise.reject(new Error('the opening does not call the model')),
  automation: () => Promise.reject(new OpeningNeedsRun()),
};

/** A new anonymous conversation, not stored yet: its opening, and how to store it once the visitor writes. */
export interface UnstoredConversation {
  /** The flow's opening; undefined when it reaches an automation node (the run opens it: the action runs there). */
  opening?: ChatTurn;
  /** Stores the session (with its opening, when it has one) in one statement. */
  store(): Promise<void>;
}

/**
 * A new anonymous conversation: the flow's opening runs here (pure, no model), so the three opening frames wait on
 * nothing; nothing is stored until the visitor's first message (a connect that says nothing leaves no row). The
 * chatSession run starts with that message, from the stored state (the resume path).
 */
export async function openNewConversation(db: Db, log: Logger, sessionId: string, flow: FlowRow): Promise<UnstoredConversation> {
  const carried: ChatCarried = { engine: initialEngineState(), seq: 0, opened: true };
  const row = { id: sessionId, workspaceId: flow.workspace_id, flowId: flow.id, leadId: null };
  let outcome;
  try {
    outcome = await advance(parseFlowGraph(flow.graph), carried.engine, undefined, noModel);
  } catch (err) {
    if (!(err instanceof OpeningNeedsRun)) throw err;
    // Stored unopened: the conversation opens it through the workflow (the `open` Update), which runs the action.
    return { store: () => createChatSession(db, row) };
  }
  const replies = outcome.replies.map((content): ChatMessage => ({ id: randomUUID(), seq: ++carried.seq, sender: 'bot', content }));
  const { skipped } = outcome;
  return {
    opening: { replies, ended: carried.engine.ended },
    async store() {
      await createOpenedChatSession(db, { ...row, state: carried, messages: replies });
      for (const s of skipped) log.info({ sessionId, node: s.node, reason: s.reason }, 'chat automation node skipped');
    },
  };
}
