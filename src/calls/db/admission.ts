// The statements of call admission (src/calls/admission.ts): reading what a call is judged on, and writing an admitted
// call. No rule is judged here; the concurrent-call cap is held exact by the slot counter (see call-slots.ts).
import { perHandle, prepared, type Queryable } from '../../db/pool';
import { StatementBatches } from '../../db/statement-batches';
import type { CallWindow } from '../../../workflows/calls/outbound-call-types';

/** Everything a call is judged on, read in one statement. */
export interface AdmissionFacts {
  /** Null when the agent is not the workspace's (the workspace's facts are still read). */
  agentId: string | null;
  transferNumber: string | null;
  agentWindow: CallWindow | null;
  defaultRegion: string;
  workspaceTimezone: string;
  maxConcurrentCalls: number;
  leadId: string | null;
  leadTimezone: string | null;
  doNotCall: boolean;
  /** The given caller id is one of the workspace's numbers (false when none was given). */
  givenFromIsOurs: boolean;
  /** The agent's phone group's numbers, least recently used first. */
  groupNumbers: string[];
}

/**
 * One row per asked call (n: its place in the batch) whose workspace exists. The lead is found by its id, else by the
 * phone, each through its own index: one join condition choosing between them by CASE was a filter, so every call read
 * every lead of its workspace (4.4 ms at 14,000 leads; a campaign's audience is its workspace's leads). Exported for
 * its plan test.
 */
export const ADMISSION_FACTS = prepared(
  'call_admission_facts',
  `SELECT q.n, a.id AS "agentId", a.transfer_number AS "transferNumber", a.call_window AS "agentWindow",
          w.default_region AS "defaultRegion", w.timezone AS "workspaceTimezone", w.max_concurrent_calls AS "maxConcurrentCalls",
          l.id AS "leadId", l.timezone AS "leadTimezone",
          EXISTS (SELECT 1 FROM do_not_call d WHERE d.workspace_id = w.id AND d.phone = q.phone) AS "doNotCall",
          (q.given IS NOT NULL AND EXISTS (SELECT 1 FROM phone_numbers p WHERE p.workspace_id = w.id AND p.phone = q.given)) AS "givenFromIsOurs",
          ARRAY(SELECT p.phone FROM phone_numbers p WHERE p.workspace_id = w.id AND p.phone_group_id = a.phone_group_id
                ORDER BY p.last_used_at ASC NULLS FIRST, p.phone) AS "groupNumbers"
   FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[]) WITH ORDINALITY AS q(ws, agent, phone, given, lead, n)
   JOIN workspaces w ON w.id = q.ws
   LEFT JOIN agents a ON a.workspace_id = w.id AND a.id = q.agent
   LEFT JOIN LATERAL (SELECT l.id, l.timezone FROM leads l WHERE l.workspace_id = w.id AND l.id = q.lead
                      UNION ALL
                      SELECT l.id, l.timezone FROM leads l WHERE q.lead IS NULL AND l.workspace_id = w.id AND l.phone = q.phone) l ON true`,
);

/** Whom a call is asked of, to whom, with what caller id and lead (when known). */
export interface FactsAsk {
  workspaceId: string;
  agentId: string;
  to: string;
  from?: string | null;
  leadId?: string | null;
}

/**
 * How long a facts read may wait for company under concurrent load (calls that come one at a time never wait). The
 * calls judged on one read reach the write together and go in one statement at once (the write has no wait of its
 * own), so a burst of calls costs one read and one write. Measured by `npm run bench -- calls` (16 in flight, two runs
 * each, same machine and day): the read lingering 20 ms and the write not, 0.31–0.34 statements per call, api CPU
 * 744–750 µs and Postgres 206–217 µs per call; the write lingering 20 ms and the read not, 0.61–0.63, 867–894 µs and
 * 283–294 µs.
 */
const READ_LINGER_MS = 20;

/** Concurrent reads as one statement (a burst of api calls reads its facts in one round trip). */
const factReads = perHandle(
  (db) =>
    new StatementBatches<FactsAsk, AdmissionFacts | undefined>(
      async (batch) => {
        const rows = await db.query<AdmissionFacts & { n: string }>(ADMISSION_FACTS, [
          batch.map((c) => c.workspaceId),
          batch.map((c) => c.agentId),
          batch.map((c) => c.to),
          batch.map((c) => c.from ?? null),
          batch.map((c) => c.leadId ?? null),
        ]);
        const byN = new Map(rows.map(({ n, ...facts }) => [Number(n), facts]));
        return batch.map((_c, i) => byN.get(i + 1));
      },
      { max: 100, gatherOneTurn: true, lingerMs: READ_LINGER_MS },
    ),
);

/** What a call to `to` by the workspace's agent is judged on; undefined when the workspace does not exist. */
export function readAdmissionFacts(db: Queryable, c: FactsAsk): Promise<AdmissionFacts | undefined> {
  return factReads(db).add(c);
}

/** The workspace's region phones are read in, or undefined for an unknown workspace. */
export async function workspaceRegion(db: Queryable, workspaceId: string): Promise<string | undefined> {
  return (await db.one<{ default_region: string }>('SELECT default_region FROM workspaces WHERE id = $1', [workspaceId]))?.default_region;
}

/** An admitted call to write: the caller id chosen, the lead found. */
export interface AdmittedCall {
  id: string;
  workspaceId: string;
  agentId: string;
  leadId: string | null;
  to: string;
  from: string;
  requestData: unknown;
}

/**
 * Records an admitted call that takes its slot later (the outboundCall workflow waits for one): idempotent, an
 * existing row (an api call, or a retried activity) is kept; marks its caller id used when it was chosen here.
 */
export async function recordQueuedCall(db: Queryable, c: AdmittedCall, touchFrom: boolean): Promise<void> {
  await db.query(
    `WITH inserted AS (
       INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, request_data)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING 1)
     UPDATE phone_numbers SET last_used_at = now() WHERE $8 AND workspace_id = $2 AND phone = $6 AND EXISTS (SELECT 1 FROM inserted)`,
    [c.id, c.workspaceId, c.agentId, c.leadId, c.to, c.from, c.requestData === undefined ? null : JSON.stringify(c.requestData), touchFrom],
  );
}

/** How writing an admitted api call came out: written holding a slot, the cap reached, or the agent gone meanwhile. */
export type SlotWrite = 'placed' | 'full' | 'agent_gone';

// Enough calls that a burst goes in a few statements.
const MAX_CALLS = 100;

const WRITE = prepared('write_admitted_calls', 'SELECT * FROM write_admitted_calls($1, $2, $3, $4, $5, $6, $7)');

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * Concurrent admitted api calls written by one statement (migration 024's write_admitted_calls, each call in turn, as
 * alone): those arriving in the same turn of the event loop (the calls judged on one facts read), or while a statement
 * is in flight, go together, in workspace order (every batch takes its workspaces' counter locks in the same order). A
 * failing statement is retried call by call, so one bad call fails only its own caller.
 */
class AdmittedCallWrites {
  private readonly batches: StatementBatches<AdmittedCall, SlotWrite>;

  constructor(db: Queryable) {
    this.batches = new StatementBatches(
      async (batch) => {
        const rows = await db.query<{ n: number; agent: boolean; placed: boolean }>(WRITE, [
          batch.map((c) => c.id),
          batch.map((c) => c.workspaceId),
          batch.map((c) => c.agentId),
          batch.map((c) => c.leadId),
          batch.map((c) => c.to),
          batch.map((c) => c.from),
          batch.map((c) => json(c.requestData)),
        ]);
        const byN = new Map(rows.map((r) => [r.n, r]));
        return batch.map((_c, i): SlotWrite => {
          const r = byN.get(i + 1)!;
          return r.placed ? 'placed' : r.agent ? 'full' : 'agent_gone';
        });
      },
      {
        max: MAX_CALLS,
        gatherOneTurn: true,
        order: (a, b) => (a.workspaceId < b.workspaceId ? -1 : a.workspaceId > b.workspaceId ? 1 : 0),
      },
    );
  }

  write(c: AdmittedCall): Promise<SlotWrite> {
    return this.batches.add(c);
  }
}

const writesOf = perHandle((db) => new AdmittedCallWrites(db));

/** Writes an admitted api call holding one of its workspace's slots, or nothing at the cap (exact under concurrency). */
export function writeCallHoldingSlot(db: Queryable, c: AdmittedCall): Promise<SlotWrite> {
  return writesOf(db).write(c);
}
