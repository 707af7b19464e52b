import { z } from 'zod';
import { CAMPAIGN_STATUSES, LEAD_OUTCOMES } from '../types';

export { AudienceBody, CreateCampaignBody } from '../schema';

/** The answer of POST /v1/campaigns and of pause, resume and cancel. */
export const CampaignState = z.object({ campaign_id: z.guid(), status: z.enum(CAMPAIGN_STATUSES) });

const count = z.int().min(0);
/** A campaign with its live counts. */
export const Campaign = z.object({
  campaign_id: z.guid(),
  name: z.string(),
  agent_id: z.guid(),
  status: z.enum(CAMPAIGN_STATUSES),
  audience: z.union([z.object({ tag: z.string() }), z.object({ lead_ids: z.array(z.guid()) }), z.object({ import_id: z.guid() })]),
  from: z.string().optional(),
  window: z.object({ start: z.string(), end: z.string(), days: z.array(z.string()).optional() }).optional(),
  max_concurrent: z.int(),
  calls_per_minute: z.int().nullable(),
  retries: z.object({ attempts: z.int(), spacing: z.string() }).optional(),
  retry_on: z.array(z.string()).optional(),
  start_at: z.string().nullable(),
  audience_size: z.int().nullable().describe('Leads in the audience snapshot taken when the campaign started (null before)'),
  counts: z
    .object({
      total: count,
      pending: count,
      waiting_for_window: count,
      dialing: count,
      human: count,
      voicemail: count,
      no_answer: count,
      busy: count,
      failed: count,
      transferred: count,
      canceled: count,
      skipped: count,
      skipped_do_not_call: count,
      skipped_invalid: count,
      skipped_deleted: count,
    })
    .describe('Leads by state (pending, waiting_for_window, dialing) and, once done, by outcome; skipped split by reason'),
  created_at: z.iso.datetime(),
  started_at: z.iso.datetime().nullable(),
  finished_at: z.iso.datetime().nullable(),
  estimated_end_at: z.iso.datetime().nullable().describe('From the pace so far, while running'),
});

/** One lead of a campaign with its calls. */
export const CampaignLead = z.object({
  lead_id: z.guid(),
  state: z.enum(['pending', 'waiting_for_window', 'dialing', 'done']),
  outcome: z.enum(LEAD_OUTCOMES).nullable(),
  skip_reason: z.enum(['do_not_call', 'invalid', 'deleted']).nullable(),
  attempts: z.int(),
  calls: z.array(z.object({ call_id: z.guid(), attempt: z.int(), outcome: z.string().nullable(), ended_reason: z.string().nullable() })),
});
