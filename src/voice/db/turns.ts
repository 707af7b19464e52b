import type { Queryable } from '../../db/pool';

/** One turn of a call's conversation, as stored. */
export interface CallTurn {
  index: number;
  speaker: 'agent' | 'callee';
  text: string;
  startMs: number;
  endMs: number;
  interrupted: boolean;
}

/** Writes a turn (again): by (call, index), so a turn written twice, or by a resumed stream, is one turn. */
export async function upsertTurn(db: Queryable, callId: string, workspaceId: string, t: CallTurn): Promise<void> {
  await db.query(
    `INSERT INTO call_turns (call_id, turn_index, workspace_id, speaker, text, start_ms, end_ms, interrupted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (call_id, turn_index) DO UPDATE SET speaker = EXCLUDED.speaker, text = EXCLUDED.text, start_ms = EXCLUDED.start_ms,
       end_ms = EXCLUDED.end_ms, interrupted = EXCLUDED.interrupted, updated_at = now()`,
    [callId, t.index, workspaceId, t.speaker, t.text, Math.round(t.startMs), Math.round(t.endMs), t.interrupted],
  );
}

/** A call's turns in order (only within its workspace). */
export async function callTurns(db: Queryable, workspaceId: string, callId: string): Promise<CallTurn[]> {
  const rows = await db.query<{ turn_index: number; speaker: 'agent' | 'callee'; text: string; start_ms: number; end_ms: number; interrupted: boolean }>(
    'SELECT turn_index, speaker, text, start_ms, end_ms, interrupted FROM call_turns WHERE call_id = $1 AND workspace_id = $2 ORDER BY turn_index',
    [callId, workspaceId],
  );
  return rows.map((r) => ({ index: r.turn_index, speaker: r.speaker, text: r.text, startMs: r.start_ms, endMs: r.end_ms, interrupted: r.interrupted }));
}
