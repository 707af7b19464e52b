import type { Queryable } from '../../db/pool';

/** A call as the voice process needs it to accept a stream and hold the conversation. */
export interface VoiceCall {
  id: string;
  workspace_id: string;
  status: string;
  parent_id: string | null;
  provider_sid: string | null;
  agent_id: string | null;
  lead_id: string | null;
  request_data: Record<string, unknown> | null;
}

export async function voiceCall(db: Queryable, callId: string): Promise<VoiceCall | undefined> {
  return db.one<VoiceCall>('SELECT id, workspace_id, status, parent_id, provider_sid, agent_id, lead_id, request_data FROM calls WHERE id = $1', [callId]);
}

/**
 * Takes a call's stream for streamSid with a credential's nonce: the first stream of a call takes it; a later one only
 * with a resume credential not used before, and only while the agent has not ended the call (call_streams' comment).
 * Resolves whether it was taken.
 */
export async function claimCallStream(
  db: Queryable,
  c: { callId: string; workspaceId: string; streamSid: string; nonce: string; resume: boolean },
): Promise<boolean> {
  const row = await db.one<{ stream_sid: string }>(
    `INSERT INTO call_streams (call_id, workspace_id, stream_sid, nonce) VALUES ($1, $2, $3, $4)
     ON CONFLICT (call_id) DO UPDATE SET stream_sid = EXCLUDED.stream_sid, nonce = EXCLUDED.nonce, streams = call_streams.streams + 1,
       opened_at = now(), closed_at = NULL
     WHERE $5::boolean AND call_streams.nonce <> EXCLUDED.nonce AND call_streams.ended_reason IS NULL
     RETURNING stream_sid`,
    [c.callId, c.workspaceId, c.streamSid, c.nonce, c.resume],
  );
  return row?.stream_sid === c.streamSid;
}

/** The stream closed: by the agent ending the call (endedReason: not resumed), or otherwise (null). */
export async function closeCallStream(db: Queryable, callId: string, streamSid: string, endedReason: string | null): Promise<void> {
  await db.query('UPDATE call_streams SET closed_at = now(), ended_reason = COALESCE($3, ended_reason) WHERE call_id = $1 AND stream_sid = $2', [
    callId,
    streamSid,
    endedReason,
  ]);
}
