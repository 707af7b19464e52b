// The few statements POST /v1/agent needs: each read or write of placing a call is one round trip (see calls.ts for
// the statements the outboundCall workflow's activities use).
import type { Db, Queryable } from '../pool';
import { reclaimStaleSlots, TAKE_SLOT_CTE } from './call-slots';
import type { CallAgent, NewCall } from './calls';

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
 * Takes a concurrent-call slot, records the call holding it and marks its caller id used, in one statement (no
 * transaction round trips; the counter row is locked only while the statement runs); false (nothing written) at the
 * cap. Stale slots are taken back, and the slot tried again, only when the cap is reached.
 */
export async function createApiCallHoldingSlot(db: Db, c: NewCall): Promise<boolean> {
  const row = await db.one<{ ok: boolean }>(
    `WITH ${TAKE_SLOT_CTE},
     call AS (INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, request_data, slot_taken_at)
              SELECT $1::text, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::text, $7::jsonb, now() WHERE EXISTS (SELECT 1 FROM slot)),
     touched AS (UPDATE phone_numbers SET last_used_at = now() WHERE workspace_id = $2 AND phone = $6 AND EXISTS (SELECT 1 FROM slot))
     SELECT EXISTS (SELECT 1 FROM slot) AS ok`,
    [c.id, c.workspaceId, c.agentId, c.leadId, c.to, c.from, c.requestData === undefined ? null : JSON.stringify(c.requestData)],
  );
  if (row!.ok) return true;
  return (await reclaimStaleSlots(db, c.workspaceId)) > 0 ? createApiCallHoldingSlot(db, c) : false;
}
