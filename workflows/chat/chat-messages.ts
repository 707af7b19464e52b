// The chatSession workflow's input and updates: shared by the workflow and the api that calls it.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { EngineState } from '../../src/chat/engine';
import type { FlowGraph } from '../../src/chat/flow-types';

/** A message as stored and sent: ids are UUIDs, seq orders a conversation. */
export interface ChatMessage {
  id: string;
  seq: number;
  sender: 'user' | 'bot';
  content: string;
}

/** What a run carries to the next (continue-as-new) or what a resume reads back from Postgres. */
export interface ChatCarried {
  engine: EngineState;
  /** The last seq used. */
  seq: number;
  opened: boolean;
}

export interface ChatInput {
  sessionId: string;
  workspaceId: string;
  flowId: string;
  leadId?: string;
  graph: FlowGraph;
  idleMs: number;
  /** scripted: the deterministic model runs inside the workflow (no activity); openai: a local activity calls the server. */
  model?: 'scripted' | 'openai';
  /** Updates a run takes before it continues as new (below Temporal's 2,000 per run). */
  updatesPerRun: number;
  resume?: ChatCarried;
}

/** A turn's result: the user's message as stored (absent for the opening) and the replies, in order. */
export interface ChatTurn {
  user?: ChatMessage;
  replies: ChatMessage[];
  ended: boolean;
}

/** The opening (first messages of the flow); idempotent: a second call returns no new messages. */
export const chatOpenUpdate = defineUpdate<ChatTurn, []>('open');
/** One user message; the update id is the message id, so a retried message is answered once. */
export const chatMessageUpdate = defineUpdate<ChatTurn, [{ id: string; text: string }]>('message');

/** Messages answered but not yet in Postgres (their write follows the reply), and whether the flow ended. */
export const chatUnsavedQuery = defineQuery<{ messages: ChatMessage[]; ended: boolean }>('unsaved');

/** Failure type of a message sent after the flow ended. */
export const FLOW_ENDED_TYPE = 'FlowEnded';
/**
 * Rejection type of a message sent while the run closes (idle end or continue-as-new, waiting for its last writes):
 * rejected before it is recorded, so the sender sends it again and it reaches the next run.
 */
export const RUN_CLOSING_TYPE = 'RunClosing';
