// A campaign's shapes shared by its routes, its repository, its run and the CLI. Types and constants only.
import type { CallWindow } from '../../workflows/calls/outbound-call-types';

/** Who a campaign calls: the leads with a tag, a list of lead ids, or the leads an import wrote. */
export type Audience = { tag: string } | { lead_ids: string[] } | { import_id: string };

/** The campaign as accepted (snake_case, as POST /v1/campaigns takes it, the agent's id resolved). */
export interface CampaignSpec {
  from?: string;
  audience: Audience;
  window?: CallWindow;
  max_concurrent: number;
  calls_per_minute?: number;
  retries?: { attempts: number; spacing: string };
  retry_on?: string[];
  start_at?: string;
}

export const CAMPAIGN_STATUSES = ['scheduled', 'running', 'paused', 'completed', 'canceled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** Statuses a campaign never leaves. */
export const ENDED: readonly CampaignStatus[] = ['completed', 'canceled'];

/** What a lead's place in a campaign comes to: a call outcome, or skipped. */
export const LEAD_OUTCOMES = ['human', 'voicemail', 'no_answer', 'busy', 'failed', 'transferred', 'canceled', 'skipped'] as const;
export type LeadOutcome = (typeof LEAD_OUTCOMES)[number];
/** Why a lead was skipped. */
export type SkipReason = 'do_not_call' | 'invalid' | 'deleted';

/** A control the pause/resume/cancel routes send the run (signal `campaignControl`). */
export type CampaignControl = 'pause' | 'resume' | 'cancel';
export const CAMPAIGN_CONTROL_SIGNAL = 'campaignControl';

/** The run's input (workflow id `campaign:<id>`); `carry` is what a continued run takes over from the one before. */
export interface CampaignRunInput {
  campaignId: string;
  workspaceId: string;
  agentId: string;
  name: string;
  spec: CampaignSpec;
  /** Calls a run starts before it continues as new (default CALLS_PER_RUN; tests and the benchmark set it). */
  callsPerRun?: number;
  carry?: { started: boolean; paused: boolean; canceled: boolean; lastStartMs: number; runs: number };
}

/** A lead the run may call now, with its call's data. */
export interface DueLead {
  position: number;
  leadId: string;
  phone: string;
  attempts: number;
  requestData: Record<string, unknown>;
}
