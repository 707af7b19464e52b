import type { Queryable } from '../../db/pool';

export interface TranscriptMessageRow {
  id: string;
  seq: number;
  sender: 'user' | 'bot';
  content: string;
  created_at: Date;
}

export interface ChatSessionSummaryRow {
  /** webchat-session.<uuid> */
  session: string;
  /** The session id's uuid part: the keyset position's id. */
  id: string;
  position: string;
  flow_id: string;
  lead_id: string | null;
  created_at: Date;
  ended: boolean;
}

/** Whether the conversation exists in the workspace (another workspace's reads as absent). */
export async function chatSessionInWorkspace(db: Queryable, workspaceId: string, sessionId: string): Promise<boolean> {
  return (await db.one('SELECT 1 FROM chat_sessions WHERE id = $1 AND workspace_id = $2', [sessionId, workspaceId])) !== undefined;
}

/** A conversation's stored messages in order, those after `afterSeq`, at most `limit`. */
export function transcriptPage(db: Queryable, workspaceId: string, sessionId: string, afterSeq: number, limit: number): Promise<TranscriptMessageRow[]> {
  return db.query<TranscriptMessageRow>(
    `SELECT id, seq, sender, content, created_at FROM chat_messages
      WHERE session_id = $1 AND workspace_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
    [sessionId, workspaceId, afterSeq, limit],
  );
}

/** The workspace's conversations newest first, optionally one lead's or one flow's, after a keyset position. */
export function listChatSessions(
  db: Queryable,
  workspaceId: string,
  filter: { leadId?: string; flowId?: string },
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<ChatSessionSummaryRow[]> {
  return db.query<ChatSessionSummaryRow>(
    `SELECT id AS session, substr(id, length('webchat-session.') + 1) AS id,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position,
            flow_id, lead_id, created_at, coalesce((state -> 'engine' ->> 'ended')::boolean, false) AS ended
       FROM chat_sessions
      WHERE workspace_id = $1
        AND ($2::uuid IS NULL OR lead_id = $2)
        AND ($3::uuid IS NULL OR flow_id = $3)
        AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, 'webchat-session.' || $5))
      ORDER BY created_at DESC, id DESC
      LIMIT $6`,
    [workspaceId, filter.leadId ?? null, filter.flowId ?? null, after?.createdAt ?? null, after?.id ?? null, limit],
  );
}
