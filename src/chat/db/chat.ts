import type { Queryable } from '../../db/pool';

export interface FlowRow {
  id: string;
  workspace_id: string;
  name: string;
  public_chat: boolean;
  owner_name: string;
  owner_picture: string | null;
  allowed_origins: string[];
  graph: unknown;
}

export interface ChatSessionRow {
  id: string;
  workspace_id: string;
  flow_id: string;
  lead_id: string | null;
  state: unknown;
}

export interface ChatMessageRow {
  id: string;
  seq: number;
  sender: 'user' | 'bot';
  content: string;
}

/** A flow by id (any workspace: chat visitors do not name one). */
export function findFlow(db: Queryable, id: string): Promise<FlowRow | undefined> {
  return db.one<FlowRow>('SELECT id, workspace_id, name, public_chat, owner_name, owner_picture, allowed_origins, graph FROM flows WHERE id = $1', [id]);
}

/** Records a new conversation of a flow (lead_id null for anonymous chats; record: what an anonymous visitor gave). */
export async function createChatSession(
  db: Queryable,
  s: { id: string; workspaceId: string; flowId: string; leadId: string | null; record?: Record<string, unknown> },
): Promise<void> {
  await db.query('INSERT INTO chat_sessions (id, workspace_id, flow_id, lead_id, record) VALUES ($1, $2, $3, $4, $5)', [
    s.id,
    s.workspaceId,
    s.flowId,
    s.leadId,
    s.record ? JSON.stringify(s.record) : null,
  ]);
}

/**
 * Records a new conversation together with its opening (messages and state) in one statement: the session exists
 * only with its opening, so no run or connection ever sees it half opened.
 */
export async function createOpenedChatSession(
  db: Queryable,
  s: { id: string; workspaceId: string; flowId: string; leadId: string | null; state: unknown; messages: ChatMessageRow[] },
): Promise<void> {
  await db.query(
    `WITH created AS (
       INSERT INTO chat_sessions (id, workspace_id, flow_id, lead_id, state) VALUES ($1, $2, $3, $4, $5) RETURNING id
     )
     INSERT INTO chat_messages (id, session_id, workspace_id, seq, sender, content)
     SELECT m.id, created.id, $2, m.seq, m.sender, m.content FROM created, jsonb_to_recordset($6::jsonb) AS m(id uuid, seq int, sender text, content text)`,
    [s.id, s.workspaceId, s.flowId, s.leadId, JSON.stringify(s.state), JSON.stringify(s.messages)],
  );
}

export function findChatSession(db: Queryable, id: string): Promise<ChatSessionRow | undefined> {
  return db.one<ChatSessionRow>('SELECT id, workspace_id, flow_id, lead_id, state FROM chat_sessions WHERE id = $1', [id]);
}

/** The lead a conversation is bound to (null: anonymous; undefined: no such conversation). */
export async function chatSessionLead(db: Queryable, sessionId: string): Promise<string | null | undefined> {
  return (await db.one<{ lead_id: string | null }>('SELECT lead_id FROM chat_sessions WHERE id = $1', [sessionId]))?.lead_id;
}

/** What a chatSession run starts from: the conversation's stored state and its flow's graph, in one round trip. */
export function findChatResume(db: Queryable, sessionId: string): Promise<{ state: unknown; graph: unknown } | undefined> {
  return db.one<{ state: unknown; graph: unknown }>('SELECT s.state, f.graph FROM chat_sessions s JOIN flows f ON f.id = s.flow_id WHERE s.id = $1', [
    sessionId,
  ]);
}

/**
 * Stores one turn: its messages (each once: a retried turn finds its seqs taken) and the flow position after it,
 * in one statement (atomic, one round trip) so a resume never sees messages without the state that produced them.
 * The state only moves forward (a late retry of an older batch leaves a newer state in place).
 */
export async function saveChatTurn(q: Queryable, workspaceId: string, sessionId: string, messages: ChatMessageRow[], state: unknown): Promise<void> {
  await q.query(
    `WITH added AS (
       INSERT INTO chat_messages (id, session_id, workspace_id, seq, sender, content)
       SELECT m.id, $1, $2, m.seq, m.sender, m.content FROM jsonb_to_recordset($3::jsonb) AS m(id uuid, seq int, sender text, content text)
       ON CONFLICT DO NOTHING
     )
     UPDATE chat_sessions SET state = $4, updated_at = now()
     WHERE id = $1 AND workspace_id = $2 AND (state IS NULL OR (state->>'seq')::int <= ($4::jsonb->>'seq')::int)`,
    [sessionId, workspaceId, JSON.stringify(messages), JSON.stringify(state)],
  );
}

/** Messages after seq (0: all), oldest first. */
export function chatMessagesAfter(db: Queryable, sessionId: string, afterSeq: number): Promise<ChatMessageRow[]> {
  return db.query<ChatMessageRow>('SELECT id, seq, sender, content FROM chat_messages WHERE session_id = $1 AND seq > $2 ORDER BY seq', [sessionId, afterSeq]);
}

/** The seq of a message of this session, or undefined. */
export async function chatMessageSeq(db: Queryable, sessionId: string, messageId: string): Promise<number | undefined> {
  return (await db.one<{ seq: number }>('SELECT seq FROM chat_messages WHERE session_id = $1 AND id = $2', [sessionId, messageId]))?.seq;
}

/** The latest message the bot sent, or undefined before the opening. */
export function latestBotMessage(db: Queryable, sessionId: string): Promise<ChatMessageRow | undefined> {
  return db.one<ChatMessageRow>("SELECT id, seq, sender, content FROM chat_messages WHERE session_id = $1 AND sender = 'bot' ORDER BY seq DESC LIMIT 1", [
    sessionId,
  ]);
}

/** An automation node's run as a conversation records it. */
export interface ChatAutomationRow {
  request_id: string;
  node_id: string;
  success: boolean;
  detail: string;
}

/** Records automation node runs of a conversation (each once: a retried write finds its request id taken). */
export async function saveChatAutomations(
  q: Queryable,
  workspaceId: string,
  sessionId: string,
  runs: { node: string; requestId: string; success: boolean; detail: string }[],
): Promise<void> {
  if (!runs.length) return;
  await q.query(
    `INSERT INTO chat_automations (request_id, session_id, workspace_id, node_id, success, detail)
     SELECT r."requestId", $1, $2, r.node, r.success, r.detail FROM jsonb_to_recordset($3::jsonb) AS r("requestId" uuid, node text, success boolean, detail text)
     ON CONFLICT DO NOTHING`,
    [sessionId, workspaceId, JSON.stringify(runs)],
  );
}

/** The automation node runs of a conversation, oldest first. */
export function chatAutomations(db: Queryable, sessionId: string): Promise<ChatAutomationRow[]> {
  return db.query<ChatAutomationRow>(
    'SELECT request_id, node_id, success, detail FROM chat_automations WHERE session_id = $1 ORDER BY created_at, request_id',
    [sessionId],
  );
}
