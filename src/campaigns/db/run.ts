// The campaign run's statements: due leads, their calls and outcomes, and the counts shown while it goes.
import type { Queryable } from '../../db/pool';
import type { LeadOutcome, SkipReason } from '../types';

/** A lead whose turn it is, with its lead's fields (null ones: the lead is gone). */
export interface DueRow {
  position: number;
  lead_id: string;
  attempts: number;
  phone: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  timezone: string | null;
  custom_fields: Record<string, unknown> | null;
}

/**
 * Up to `limit` leads due at `now` (pending or waiting, next_at reached), in (next_at, position) order; `busy`: leads
 * the run holds already (their call's start or end not recorded yet).
 */
export async function dueLeads(db: Queryable, campaignId: string, workspaceId: string, now: Date, limit: number, busy: number[]): Promise<DueRow[]> {
  return db.query<DueRow & Record<string, unknown>>(
    `SELECT c.position, c.lead_id, c.attempts, l.phone, l.first_name, l.last_name, l.email, l.company, l.timezone, l.custom_fields
     FROM campaign_leads c LEFT JOIN leads l ON l.id = c.lead_id AND l.workspace_id = $2
     WHERE c.campaign_id = $1 AND c.state IN ('pending', 'waiting') AND c.next_at <= $3 AND c.position <> ALL ($5::int[])
     ORDER BY c.next_at, c.position LIMIT $4`,
    [campaignId, workspaceId, now, limit, busy],
  );
}

/** Leads outside their window wait until it opens (each its own instant). */
export async function markWaiting(db: Queryable, campaignId: string, leads: { position: number; until: Date }[]): Promise<void> {
  if (!leads.length) return;
  await db.query(
    `UPDATE campaign_leads c SET state = 'waiting', next_at = w.until FROM unnest($2::int[], $3::timestamptz[]) AS w(position, until)
     WHERE c.campaign_id = $1 AND c.position = w.position AND c.state IN ('pending', 'waiting')`,
    [campaignId, leads.map((l) => l.position), leads.map((l) => l.until)],
  );
}

/** Leads skipped without a call (gone, or no dialable phone). */
export async function markSkipped(db: Queryable, campaignId: string, leads: { position: number; reason: SkipReason }[]): Promise<void> {
  if (!leads.length) return;
  await db.query(
    `UPDATE campaign_leads c SET state = 'done', outcome = 'skipped', reason = s.reason FROM unnest($2::int[], $3::text[]) AS s(position, reason)
     WHERE c.campaign_id = $1 AND c.position = s.position AND c.state <> 'done'`,
    [campaignId, leads.map((l) => l.position), leads.map((l) => l.reason)],
  );
}

/** The earliest instant a lead not yet done is due (null: none is pending or waiting), leaving out `busy` ones. */
export async function nextDueAt(db: Queryable, campaignId: string, busy: number[]): Promise<Date | null> {
  const row = await db.one<{ at: Date | null }>(
    `SELECT min(next_at) AS at FROM campaign_leads WHERE campaign_id = $1 AND state IN ('pending', 'waiting') AND position <> ALL ($2::int[])`,
    [campaignId, busy],
  );
  return row?.at ?? null;
}

/** Records a call about to start (once per call id) and puts its lead in dialing. */
export async function startLeadCall(db: Queryable, c: { campaignId: string; position: number; callId: string; attempt: number }): Promise<void> {
  await db.query(
    `WITH ins AS (INSERT INTO campaign_calls (call_id, campaign_id, workspace_id, position, attempt)
                 SELECT $3, $1, workspace_id, $2, $4 FROM campaigns WHERE id = $1 ON CONFLICT DO NOTHING RETURNING 1)
     UPDATE campaign_leads SET state = 'dialing', attempts = $4 WHERE campaign_id = $1 AND position = $2 AND state <> 'done'`,
    [c.campaignId, c.position, c.callId, c.attempt],
  );
}

/** How a lead's call ended: the lead done with `outcome`, or (retryAt) pending again from then. */
export interface LeadCallEnd {
  campaignId: string;
  position: number;
  callId: string;
  callOutcome: string;
  endedReason: string | null;
  outcome: LeadOutcome;
  reason: SkipReason | null;
  retryAt: Date | null;
}

/** Records how a call ended; the lead is done with `outcome`, or (retry) pending again from `retryAt`. */
export async function endLeadCall(db: Queryable, c: LeadCallEnd): Promise<void> {
  await db.query(
    `WITH call AS (UPDATE campaign_calls SET outcome = $4, ended_reason = $5 WHERE call_id = $3 RETURNING 1)
     UPDATE campaign_leads SET state = CASE WHEN $8::timestamptz IS NULL THEN 'done' ELSE 'pending' END,
       outcome = CASE WHEN $8::timestamptz IS NULL THEN $6 END, reason = $7, next_at = coalesce($8, next_at)
     WHERE campaign_id = $1 AND position = $2 AND state = 'dialing'`,
    [c.campaignId, c.position, c.callId, c.callOutcome, c.endedReason, c.outcome, c.reason, c.retryAt],
  );
}

/** Ends a campaign: its leads not done yet become canceled (a canceled campaign's), and it gets its end status and time. */
export async function finishCampaign(db: Queryable, campaignId: string, status: 'completed' | 'canceled'): Promise<void> {
  await db.query(
    `WITH left_over AS (UPDATE campaign_leads SET state = 'done', outcome = 'canceled' WHERE campaign_id = $1 AND state <> 'done' RETURNING 1)
     UPDATE campaigns SET status = $2, finished_at = coalesce(finished_at, now()) WHERE id = $1`,
    [campaignId, status],
  );
}

/** Leads per (state, outcome, reason). */
export async function leadCounts(db: Queryable, campaignId: string): Promise<{ state: string; outcome: string | null; reason: string | null; n: number }[]> {
  return db.query(`SELECT state, outcome, reason, count(*)::int AS n FROM campaign_leads WHERE campaign_id = $1 GROUP BY state, outcome, reason`, [campaignId]);
}

/** A page of the campaign's leads after `afterPosition`, each with its calls (oldest first). */
export async function leadCallsPage(db: Queryable, campaignId: string, afterPosition: number, limit: number) {
  return db.query<{
    position: number;
    lead_id: string;
    state: string;
    outcome: string | null;
    reason: string | null;
    attempts: number;
    calls: { call_id: string; attempt: number; outcome: string | null; ended_reason: string | null }[];
  }>(
    `SELECT c.position, c.lead_id, c.state, c.outcome, c.reason, c.attempts,
       coalesce((SELECT json_agg(json_build_object('call_id', k.call_id, 'attempt', k.attempt, 'outcome', k.outcome, 'ended_reason', k.ended_reason) ORDER BY k.attempt)
                 FROM campaign_calls k WHERE k.campaign_id = c.campaign_id AND k.position = c.position), '[]') AS calls
     FROM campaign_leads c WHERE c.campaign_id = $1 AND c.position > $2 ORDER BY c.position LIMIT $3`,
    [campaignId, afterPosition, limit],
  );
}
