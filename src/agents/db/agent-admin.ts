// Agents as GET/POST/PATCH /v1/agents and the CLI manage them; an agent's numbers are its phone group's numbers.
import type { Queryable } from '../../db/pool';

/** A stored call window: {"start":"HH:MM","end":"HH:MM","days"?:[…]}. */
type StoredCallWindow = { start: string; end: string; days?: string[] };

/** An agent with its phone group's numbers; position is the keyset cursor's timestamp (microseconds, UTC). */
export interface AgentDetailRow {
  id: string;
  name: string;
  profile_picture: string | null;
  transfer_number: string | null;
  call_window: StoredCallWindow | null;
  phone_group_id: string | null;
  numbers: string[];
  created_at: Date;
  position: string;
  prompt: string | null;
  first_message: string | null;
  voice: { engine?: string; voice_id?: string | null } | null;
  language: string | null;
  stt: { engine: string } | null;
  llm: { engine: string } | null;
  interruptible: boolean | null;
  silence_timeout_s: number | null;
  max_duration_s: number | null;
  end_call_phrases: string[] | null;
}

const DETAIL = `a.id, a.name, a.profile_picture, a.transfer_number, a.call_window, a.phone_group_id, a.created_at,
  a.prompt, a.first_message, a.voice, a.language, a.stt, a.llm, a.interruptible, a.silence_timeout_s, a.max_duration_s, a.end_call_phrases,
  to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position,
  COALESCE((SELECT array_agg(p.phone ORDER BY p.created_at, p.phone) FROM phone_numbers p
            WHERE p.workspace_id = a.workspace_id AND p.phone_group_id = a.phone_group_id), '{}') AS numbers
  FROM agents a`;

/** One page of the workspace's agents, newest first (created_at, id), after the given position. */
export function listAgents(db: Queryable, workspaceId: string, limit: number, after?: { createdAt: string; id: string }): Promise<AgentDetailRow[]> {
  const params: unknown[] = [workspaceId, limit];
  const keyset = after ? `AND (a.created_at, a.id) < ($${params.push(after.createdAt)}::timestamptz, $${params.push(after.id)}::uuid)` : '';
  return db.query<AgentDetailRow>(`SELECT ${DETAIL} WHERE a.workspace_id = $1 ${keyset} ORDER BY a.created_at DESC, a.id DESC LIMIT $2`, params);
}

/** One agent of the workspace with its numbers, or undefined (also for another workspace's agent). */
export function agentDetail(db: Queryable, workspaceId: string, id: string): Promise<AgentDetailRow | undefined> {
  return db.one<AgentDetailRow>(`SELECT ${DETAIL} WHERE a.workspace_id = $1 AND a.id = $2`, [workspaceId, id]);
}

/** Locks the workspace's agent for the rest of the transaction (its group may be created and its numbers moved). */
export function lockAgent(db: Queryable, workspaceId: string, id: string): Promise<{ id: string; name: string; phone_group_id: string | null } | undefined> {
  return db.one('SELECT id, name, phone_group_id FROM agents WHERE workspace_id = $1 AND id = $2 FOR UPDATE', [workspaceId, id]);
}

/** The columns of an agent a change may set; undefined leaves a column as it is. */
export interface AgentChange {
  name?: string;
  profilePicture?: string | null;
  transferNumber?: string | null;
  callWindow?: StoredCallWindow | null;
  phoneGroupId?: string;
  /** The voice settings given (null: back to the default). */
  voiceSettings?: Partial<Record<(typeof VOICE_COLUMNS)[number], unknown>>;
}

/** The agent's conversation-setting columns (migration 033; voice is the older jsonb column). */
export const VOICE_COLUMNS = [
  'prompt',
  'first_message',
  'voice',
  'language',
  'stt',
  'llm',
  'interruptible',
  'silence_timeout_s',
  'max_duration_s',
  'end_call_phrases',
] as const;
const JSON_COLUMNS = new Set(['voice', 'stt', 'llm']);

/** Sets the given columns of the workspace's agent. */
export async function updateAgentColumns(db: Queryable, workspaceId: string, id: string, c: AgentChange): Promise<void> {
  const params: unknown[] = [workspaceId, id];
  const sets: string[] = [];
  if (c.name !== undefined) sets.push(`name = $${params.push(c.name)}`);
  if (c.profilePicture !== undefined) sets.push(`profile_picture = $${params.push(c.profilePicture)}`);
  if (c.transferNumber !== undefined) sets.push(`transfer_number = $${params.push(c.transferNumber)}`);
  if (c.callWindow !== undefined) sets.push(`call_window = $${params.push(c.callWindow === null ? null : JSON.stringify(c.callWindow))}::jsonb`);
  if (c.phoneGroupId !== undefined) sets.push(`phone_group_id = $${params.push(c.phoneGroupId)}`);
  for (const column of VOICE_COLUMNS) {
    const value = c.voiceSettings?.[column];
    if (value === undefined) continue;
    if (column === 'voice') sets.push(`voice = $${params.push(JSON.stringify(value ?? {}))}::jsonb`);
    else if (JSON_COLUMNS.has(column)) sets.push(`${column} = $${params.push(value === null ? null : JSON.stringify(value))}::jsonb`);
    else sets.push(`${column} = $${params.push(value)}`);
  }
  if (sets.length) await db.query(`UPDATE agents SET ${sets.join(', ')} WHERE workspace_id = $1 AND id = $2`, params);
}
