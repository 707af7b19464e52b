// The statements POST /v1/agent needs: placing a call is one statement (see calls.ts for the statements the
// outboundCall workflow's activities use).
import type { Db, NamedStatement, Queryable } from '../pool';
import { takeSlotCte } from './call-slots';
import type { CallAgent } from './calls';

/** The facts of an agent the api decides on before it knows the destination's (its workspace's region, zone, window). */
export interface CallAgentFacts {
  default_region: string;
  workspaceTimezone: string;
  call_window: CallAgent['call_window'];
}

/** What the api assumed when it judged a call: the agent's facts, the lead's zone, and whether the window was open. */
export interface CallAssumptions extends CallAgentFacts {
  leadTimezone: string | null;
  windowOpen: boolean;
}

/** What placing a call read (every refusal depends on these) and whether it placed the call. */
export interface PlacedCallFacts extends CallAgent, CallAgentFacts {
  maxConcurrentCalls: number;
  leadId: string | null;
  leadTimezone: string | null;
  doNotCall: boolean;
  /** The given caller id when it is one of the workspace's numbers, else (none given) the one chosen from the group. */
  chosenFrom: string | null;
  /** Every rule but the cap held, on the facts assumed. */
  allowed: boolean;
  /** The call row was written, holding a slot. */
  placed: boolean;
}

/** The workspace's agent's facts, or undefined (another workspace's agent included). */
export async function callAgentFacts(db: Queryable, workspaceId: string, agentId: string): Promise<CallAgentFacts | undefined> {
  return db.one<CallAgentFacts & Record<string, unknown>>(
    `SELECT w.default_region, w.timezone AS "workspaceTimezone", a.call_window
     FROM agents a JOIN workspaces w ON w.id = a.workspace_id WHERE a.workspace_id = $1 AND a.id = $2`,
    [workspaceId, agentId],
  );
}

/** A call the api places: `from` as given (normalised), or null to choose one from the agent's phone group. */
export interface ApiCall {
  id: string;
  workspaceId: string;
  agentId: string;
  to: string;
  from: string | null;
  requestData: unknown;
}

// The caller id for the destination $4 from the agent's group: the least recently used number with the destination's
// NANP area code, else the least recently used (src/calls/rules.ts chooseFrom, in SQL).
const CHOSEN_FROM = `CASE WHEN $5::text IS NOT NULL THEN (SELECT p.phone FROM phone_numbers p WHERE p.workspace_id = $2 AND p.phone = $5::text)
  ELSE (SELECT p.phone FROM phone_numbers p WHERE p.workspace_id = $2 AND p.phone_group_id = a.phone_group_id
        ORDER BY (p.phone ~ '^1[0-9]{10}$' AND $4::text ~ '^1[0-9]{10}$' AND substr(p.phone, 2, 3) = substr($4::text, 2, 3)) DESC,
                 p.last_used_at ASC NULLS FIRST, p.phone
        LIMIT 1) END`;

// Named: Postgres plans this statement once per connection (planning it costs several times what running it does).
const PLACE_CALL: NamedStatement = {
  name: 'place_api_call',
  text: `WITH f AS (
     SELECT a.id, a.transfer_number, a.phone_group_id, a.call_window, w.default_region, w.timezone AS "workspaceTimezone",
            w.max_concurrent_calls AS "maxConcurrentCalls", l.id AS "leadId", l.timezone AS "leadTimezone",
            EXISTS (SELECT 1 FROM do_not_call d WHERE d.workspace_id = $2 AND d.phone = $4::text) AS "doNotCall",
            ${CHOSEN_FROM} AS "chosenFrom"
     FROM agents a JOIN workspaces w ON w.id = a.workspace_id
     LEFT JOIN leads l ON l.workspace_id = w.id AND l.phone = $4::text
     WHERE a.workspace_id = $2 AND a.id = $3),
   ok AS (SELECT 1 FROM f WHERE $11::boolean AND f."chosenFrom" IS NOT NULL AND NOT f."doNotCall"
            AND f.default_region = $7 AND f."workspaceTimezone" = $8 AND f.call_window IS NOT DISTINCT FROM $9::jsonb
            AND f."leadTimezone" IS NOT DISTINCT FROM $10::text),
   ${takeSlotCte('EXISTS (SELECT 1 FROM ok)')},
   call AS (INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, request_data, slot_taken_at)
            SELECT $1::text, $2::uuid, f.id, f."leadId", $4::text, f."chosenFrom", $6::jsonb, now() FROM f WHERE EXISTS (SELECT 1 FROM slot)),
   touched AS (UPDATE phone_numbers p SET last_used_at = now() FROM f
               WHERE p.workspace_id = $2 AND p.phone = f."chosenFrom" AND EXISTS (SELECT 1 FROM slot))
   SELECT f.*, EXISTS (SELECT 1 FROM ok) AS allowed, EXISTS (SELECT 1 FROM slot) AS placed FROM f`,
};

/**
 * Places an api call in one statement, when every rule holds on the facts it reads: a caller id (given and the
 * workspace's, or chosen from the group), not on the do-not-call list, the facts the api judged the window on are the
 * ones read (region, zones, window) and it found the window open, and a free slot. Then the call row, its slot and the
 * caller id's last use are written together; else nothing is written. Returns what it read (undefined for another
 * workspace's agent), so that the api answers every refusal from the facts it was decided on.
 */
export async function placeCallIfAllowed(db: Db, c: ApiCall, assumed: CallAssumptions): Promise<PlacedCallFacts | undefined> {
  return db.one<PlacedCallFacts & Record<string, unknown>>(
    PLACE_CALL,
    [
      c.id,
      c.workspaceId,
      c.agentId,
      c.to,
      c.from,
      c.requestData === undefined ? null : JSON.stringify(c.requestData),
      assumed.default_region,
      assumed.workspaceTimezone,
      assumed.call_window === null ? null : JSON.stringify(assumed.call_window),
      assumed.leadTimezone,
      assumed.windowOpen,
    ],
  );
}
