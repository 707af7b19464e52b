import type { Queryable } from '../../db/pool';

/** What a call's conversation is set up from: the agent's settings (NULL: default), the lead and the workspace. */
export interface ConversationRow {
  agent_name: string | null;
  prompt: string | null;
  first_message: string | null;
  language: string | null;
  voice: { engine?: string; voice_id?: string } | null;
  stt: { engine?: string } | null;
  llm: { engine?: string } | null;
  interruptible: boolean | null;
  silence_timeout_s: number | null;
  max_duration_s: number | null;
  end_call_phrases: string[] | null;
  workspace_name: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  custom_fields: Record<string, unknown> | null;
  request_data: Record<string, unknown> | null;
}

export async function conversationRow(db: Queryable, callId: string): Promise<ConversationRow | undefined> {
  return db.one<ConversationRow>(
    `SELECT a.name AS agent_name, a.prompt, a.first_message, a.language, a.voice, a.stt, a.llm, a.interruptible, a.silence_timeout_s,
            a.max_duration_s, a.end_call_phrases, w.name AS workspace_name, l.first_name, l.last_name, l.email, l.company, l.custom_fields,
            c.request_data
     FROM calls c JOIN workspaces w ON w.id = c.workspace_id
     LEFT JOIN agents a ON a.id = c.agent_id LEFT JOIN leads l ON l.id = c.lead_id
     WHERE c.id = $1`,
    [callId],
  );
}
