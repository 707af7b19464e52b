import { Context } from '@temporalio/activity';
import { campaignAgent, findCampaign, insertCampaign, setCampaignStatus, snapshotAudience } from '../../src/campaigns/db/campaigns';
import {
  dueLeads,
  endLeadCall,
  finishCampaign,
  leadCounts,
  markSkipped,
  markWaiting,
  nextDueAt,
  startLeadCall,
  type LeadCallEnd,
} from '../../src/campaigns/db/run';
import { countsOf, presentCampaign } from '../../src/campaigns/present';
import type { CampaignRunInput, CampaignStatus, DueLead, SkipReason } from '../../src/campaigns/types';
import type { CampaignEventType } from '../../src/calls/events';
import { callTimeZone, effectiveWindow } from '../../src/calls/rules';
import type { Db } from '../../src/db/pool';
import { msUntilWindow } from '../../src/schedule/window';
import { publishToSubscribers } from '../webhooks/subscribers';
import type { Logger } from '../../src/telemetry/log';
import { ssrfAllowlist } from '../../src/net/ssrf';
import type { CallWindow } from '../../workflows/calls/outbound-call-types';

/** One campaign event to deliver, its id stable across retries. */
export interface CampaignEventInput {
  workspaceId: string;
  campaignId: string;
  type: CampaignEventType;
  eventId: string;
}

/** How many leads one look at the due ones reads at most (outside-window leads are set aside as it goes). */
const SCAN = 200;
/** Scans per activity at most: a due lead or the next instant is found well before, unless nearly all wait. */
const MAX_SCANS = 50;

/** The campaign run's activities: its record, its due leads, its calls' records, its events. */
export function createCampaignActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };

  return {
    /** Records the campaign if the api did not get to, and takes its audience snapshot once; the audience size. */
    async openCampaign(input: CampaignRunInput): Promise<number> {
      const { campaignId, workspaceId, agentId, name, spec } = input;
      await insertCampaign(db, { id: campaignId, workspaceId, agentId, name, spec, status: spec.start_at ? 'scheduled' : 'running' });
      return snapshotAudience(db, campaignId, workspaceId, spec.audience);
    },

    /**
     * Up to `limit` leads to call now (`nowMs`: the run's clock): each inside its own window (its time zone, else
     * the workspace's); the others wait for theirs, and gone leads are skipped. With none due: when the next one is
     * (null: none left to call). `busy`: leads the run holds (a call's start or end not recorded yet), left out.
     */
    async campaignDueLeads(a: { campaignId: string; workspaceId: string; agentId: string; window?: CallWindow; nowMs: number; limit: number; busy: number[] }) {
      const agent = await campaignAgent(db, a.workspaceId, a.agentId);
      const ws = await db.one<{ timezone: string }>('SELECT timezone FROM workspaces WHERE id = $1', [a.workspaceId]);
      const window = effectiveWindow(a.window, agent?.call_window);
      const now = new Date(a.nowMs);
      const due: DueLead[] = [];
      for (let scan = 0; scan < MAX_SCANS && due.length < a.limit; scan++) {
        const rows = await dueLeads(db, a.campaignId, a.workspaceId, now, SCAN, a.busy);
        const waiting: { position: number; until: Date }[] = [];
        const skipped: { position: number; reason: SkipReason }[] = [];
        for (const r of rows) {
          if (r.phone === null) skipped.push({ position: r.position, reason: 'deleted' });
          else if (!/^\d{7,15}$/.test(r.phone)) skipped.push({ position: r.position, reason: 'invalid' });
          else {
            const ms = msUntilWindow(a.nowMs, window, callTimeZone(r.timezone, ws?.timezone ?? ''));
            if (ms > 0) waiting.push({ position: r.position, until: new Date(a.nowMs + ms) });
            else if (due.length < a.limit)
              due.push({ position: r.position, leadId: r.lead_id, phone: r.phone, attempts: r.attempts, requestData: requestDataOf(r) });
          }
        }
        await markWaiting(db, a.campaignId, waiting);
        await markSkipped(db, a.campaignId, skipped);
        if (rows.length < SCAN) break;
      }
      if (due.length) return { due, nextAtMs: null };
      return { due, nextAtMs: (await nextDueAt(db, a.campaignId, a.busy))?.getTime() ?? null };
    },

    /** Records a call about to start for a lead. */
    async campaignCallStarting(c: { campaignId: string; position: number; callId: string; attempt: number }): Promise<void> {
      await startLeadCall(db, c);
    },

    /** Records how a lead's call ended: the lead done with its outcome, or (retryAtMs) due again then. */
    async campaignCallEnded(c: Omit<LeadCallEnd, 'retryAt'> & { retryAtMs: number | null }): Promise<void> {
      await endLeadCall(db, { ...c, retryAt: c.retryAtMs === null ? null : new Date(c.retryAtMs) });
    },

    /** Sets the campaign's status when it is one of `from` (a route may have set it already); the status it has. */
    async campaignSetStatus(a: { campaignId: string; status: CampaignStatus; from: CampaignStatus[] }): Promise<CampaignStatus | undefined> {
      return (await setCampaignStatus(db, a.campaignId, a.status, a.from))?.status;
    },

    /** Ends the campaign: leads not called are canceled (a canceled campaign's), status and end time set. */
    async campaignFinish(a: { campaignId: string; status: 'completed' | 'canceled' }): Promise<void> {
      await finishCampaign(db, a.campaignId, a.status);
    },

    /** POSTs a campaign event to its subscribers as publishCallEvent does a call's (signed, settled per subscriber, retried). */
    async publishCampaignEvent(e: CampaignEventInput): Promise<{ delivered: number; refused: number }> {
      return publishToSubscribers(
        { ...deps, ssrf },
        e,
        async () => {
          const campaign = await findCampaign(db, e.workspaceId, e.campaignId);
          if (!campaign) return undefined;
          const createdAt = new Date(Context.current().info.scheduledTimestampMs).toISOString();
          const data = { campaign: presentCampaign(campaign, countsOf(await leadCounts(db, campaign.id))) };
          return JSON.stringify({ id: e.eventId, type: e.type, created_at: createdAt, data });
        },
        { failureType: 'campaign_event_undelivered', logFields: { campaignId: e.campaignId } },
      );
    },
  };
}

/** The lead's fields as its call's request_data (custom fields by key, the standard ones beside). */
function requestDataOf(r: {
  lead_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  timezone: string | null;
  custom_fields: Record<string, unknown> | null;
}) {
  const standard = { lead_id: r.lead_id, first_name: r.first_name, last_name: r.last_name, email: r.email, company: r.company, timezone: r.timezone };
  return { ...(r.custom_fields ?? {}), ...Object.fromEntries(Object.entries(standard).filter(([, v]) => v !== null)) };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
