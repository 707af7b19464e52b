// The statements POST /v1/agent needs: placing a call is one statement, shared with the calls placed at the same time
// (see calls.ts for the statements the outboundCall workflow's activities use).
import { perHandle, type Queryable } from '../../db/pool';
import { CallPlacements } from './call-placements';
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

const placementsOf = perHandle((db) => new CallPlacements(db));

/**
 * Places an api call by one statement, when every rule holds on the facts it reads: a caller id (given and the
 * workspace's, or chosen from the group), not on the do-not-call list, the facts the api judged the window on are the
 * ones read (region, zones, window) and it found the window open, and a free slot. Then the call row, its slot and the
 * caller id's last use are written together; else nothing is written. Returns what it read (undefined for another
 * workspace's agent), so that the api answers every refusal from the facts it was decided on. Concurrent calls go
 * together (see CallPlacements).
 */
export function placeCallIfAllowed(db: Queryable, c: ApiCall, assumed: CallAssumptions): Promise<PlacedCallFacts | undefined> {
  return placementsOf(db).place(c, assumed);
}
