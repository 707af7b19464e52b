// A campaign as the api, its events and the CLI show it.
import type { CampaignRow } from './db/campaigns';

/** Per-state and per-outcome lead counts of a campaign. */
export interface CampaignCounts {
  total: number;
  pending: number;
  waiting_for_window: number;
  dialing: number;
  human: number;
  voicemail: number;
  no_answer: number;
  busy: number;
  failed: number;
  transferred: number;
  canceled: number;
  skipped: number;
  skipped_do_not_call: number;
  skipped_invalid: number;
  skipped_deleted: number;
}

/** Folds (state, outcome, reason, n) rows into the counts. */
export function countsOf(rows: { state: string; outcome: string | null; reason: string | null; n: number }[]): CampaignCounts {
  const c: CampaignCounts = {
    total: 0,
    pending: 0,
    waiting_for_window: 0,
    dialing: 0,
    human: 0,
    voicemail: 0,
    no_answer: 0,
    busy: 0,
    failed: 0,
    transferred: 0,
    canceled: 0,
    skipped: 0,
    skipped_do_not_call: 0,
    skipped_invalid: 0,
    skipped_deleted: 0,
  };
  for (const r of rows) {
    c.total += r.n;
    if (r.state === 'pending') c.pending += r.n;
    else if (r.state === 'waiting') c.waiting_for_window += r.n;
    else if (r.state === 'dialing') c.dialing += r.n;
    else if (r.outcome && r.outcome in c) {
      c[r.outcome as keyof CampaignCounts] += r.n;
      if (r.outcome === 'skipped' && r.reason) c[`skipped_${r.reason}` as keyof CampaignCounts] += r.n;
    }
  }
  return c;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The end estimated from the pace so far (null until a lead is done, and once it ended). */
function estimatedEnd(c: CampaignRow, counts: CampaignCounts, now: number): string | null {
  const done = counts.total - counts.pending - counts.waiting_for_window - counts.dialing;
  if (c.status !== 'running' || !c.started_at || done === 0 || done >= counts.total) return null;
  const elapsed = now - c.started_at.getTime();
  return new Date(c.started_at.getTime() + (elapsed * counts.total) / done).toISOString();
}

/** The campaign's body (snake_case). */
export function presentCampaign(c: CampaignRow, counts: CampaignCounts, now = Date.now()) {
  const s = c.spec;
  return {
    campaign_id: c.id,
    name: c.name,
    agent_id: c.agent_id,
    status: c.status,
    audience: s.audience,
    ...(s.from ? { from: s.from } : {}),
    ...(s.window ? { window: s.window } : {}),
    max_concurrent: s.max_concurrent,
    calls_per_minute: s.calls_per_minute ?? null,
    ...(s.retries ? { retries: s.retries } : {}),
    ...(s.retry_on ? { retry_on: s.retry_on } : {}),
    start_at: s.start_at ?? null,
    audience_size: c.audience_size,
    counts,
    created_at: c.created_at.toISOString(),
    started_at: iso(c.started_at),
    finished_at: iso(c.finished_at),
    estimated_end_at: estimatedEnd(c, counts, now),
  };
}
