// The few statements POST /v1/agent needs: each read or write of placing a call is one round trip (see calls.ts for
// the statements the outboundCall workflow's activities use).
import type { Db, Queryable } from '../pool';
import { STALE_SLOT_HOURS, type CallAgent, type NewCall } from './calls';

/** What placing a call to a destination reads: the agent, its workspace's region, time zone and cap, its group's numbers
 * (least recently used first), the lead with that phone, do-not-call, and whether the given caller id is the workspace's. */
export interface ApiCallFacts extends CallAgent {
  default_region: string;
  numbers: string[];
  /** Whether the given caller id is one of the workspace's numbers (true when none was given). */
  fromOk: boolean;
  doNotCall: boolean;
  workspaceTimezone: string;
  maxConcurrentCalls: number;
  leadId: string | null;
  leadTimezone: string | null;
}

/**
 * Everything a call's refusals depend on, in one read; undefined for another workspace's agent. Without a destination
 * (its region is not known yet) only the agent's and workspace's facts mean anything.
 */
export async function apiCallFacts(
  db: Queryable,
  workspaceId: string,
  agentId: string,
  to: string | null,
  from: string | null,
): Promise<ApiCallFacts | undefined> {
  return db.one<ApiCallFacts & Record<string, unknown>>(
    `SELECT a.id, a.transfer_number, a.phone_group_id, a.call_window, w.default_region,
            COALESCE((SELECT array_agg(p.phone ORDER BY p.last_used_at ASC NULLS FIRST, p.phone) FROM phone_numbers p
                      WHERE p.workspace_id = $1 AND p.phone_group_id = a.phone_group_id), '{}') AS numbers,
            w.timezone AS "workspaceTimezone", w.max_concurrent_calls AS "maxConcurrentCalls",
            l.id AS "leadId", l.timezone AS "leadTimezone",
            EXISTS (SELECT 1 FROM do_not_call d WHERE d.workspace_id = $1 AND d.phone = $3::text) AS "doNotCall",
            ($4::text IS NULL OR EXISTS (SELECT 1 FROM phone_numbers p WHERE p.workspace_id = $1 AND p.phone = $4::text)) AS "fromOk"
     FROM agents a JOIN workspaces w ON w.id = a.workspace_id
     LEFT JOIN leads l ON l.workspace_id = w.id AND l.phone = $3::text
     WHERE a.workspace_id = $1 AND a.id = $2`,
    [workspaceId, agentId, to, from],
  );
}

/**
 * Takes a concurrent-call slot, records the call and marks its caller id used, in one transaction of two statements;
 * false (nothing written) at the cap. The workspace row lock keeps takers from overshooting the cap; the count runs in
 * a statement of its own so that it sees every slot committed before the lock was granted.
 */
export async function createApiCallHoldingSlot(db: Db, c: NewCall): Promise<boolean> {
  return db.tx(async (q) => {
    const ws = await q.one<{ max: number }>('SELECT max_concurrent_calls AS max FROM workspaces WHERE id = $1 FOR UPDATE', [c.workspaceId]);
    if (!ws) return false;
    // A run an operator terminated never releases its slot; no call lasts this long, so such a slot is taken back.
    const row = await q.one<{ ok: boolean }>(
      `WITH held AS (SELECT 1 FROM call_slots WHERE call_id = $1),
       stale AS (DELETE FROM call_slots WHERE workspace_id = $2 AND acquired_at < now() - interval '${STALE_SLOT_HOURS} hours'),
       live AS (SELECT count(*)::int AS n FROM call_slots WHERE workspace_id = $2 AND acquired_at >= now() - interval '${STALE_SLOT_HOURS} hours'),
       slot AS (INSERT INTO call_slots (call_id, workspace_id)
                SELECT $1::text, $2::uuid WHERE NOT EXISTS (SELECT 1 FROM held) AND (SELECT n FROM live) < $8::int RETURNING 1),
       taken AS (SELECT EXISTS (SELECT 1 FROM held) OR EXISTS (SELECT 1 FROM slot) AS ok),
       call AS (INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, request_data)
                SELECT $1::text, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::text, $7::jsonb WHERE (SELECT ok FROM taken) ON CONFLICT (id) DO NOTHING),
       touched AS (UPDATE phone_numbers SET last_used_at = now() WHERE workspace_id = $2 AND phone = $6 AND (SELECT ok FROM taken))
       SELECT ok FROM taken`,
      [c.id, c.workspaceId, c.agentId, c.leadId, c.to, c.from, c.requestData === undefined ? null : JSON.stringify(c.requestData), ws.max],
    );
    return row!.ok;
  });
}
