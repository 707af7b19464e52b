import { z } from 'zod';
import type { AppDeps } from '../../http/deps';
import { DomainError } from '../../core/errors';
import { encodeCursor } from '../../http/cursor';
import { keysetPage } from '../../http/keyset-page';
import { defineRoute, workspaceOf, type Route } from '../../http/route';
import { answerNamingRun } from '../../http/run-link';
import { DEFAULT_PAGE_LIMIT, NextCursor, PageCursor, PageLimit } from '../../http/page-schemas';
import { isUuid } from '../../core/ids';
import { listCampaigns } from '../db/campaigns';
import { leadCallsPage, leadCounts } from '../db/run';
import { countsOf, presentCampaign } from '../present';
import { CAMPAIGN_NOT_FOUND, campaignOf, campaignView, controlCampaign, createCampaign } from '../service';
import type { CampaignControl } from '../types';
import { Campaign, CampaignLead, CampaignState, CreateCampaignBody } from './schemas';

const TAG = 'Campaigns';
const EXAMPLE_ID = '5d1e7a2c-3b4f-4c6d-8e9f-0a1b2c3d4e5f';
const ended = { 409: { description: 'The campaign ended (completed or canceled)' } };

const serviceDeps = (deps: AppDeps) => ({ db: deps.db, client: deps.temporal.client, taskQueuePrefix: deps.config.TEMPORAL_TASK_QUEUE_PREFIX });
/** The path's campaign id; anything but a UUID is a campaign no workspace has. */
const idOf = (params: Record<string, string>) => {
  const id = (params.id ?? '').toLowerCase();
  if (!isUuid(id)) throw new DomainError('campaign_not_found', CAMPAIGN_NOT_FOUND);
  return id;
};

/** POST /v1/campaigns: create a campaign and start its run. */
const createCampaignRoute = defineRoute({
  method: 'post',
  path: '/v1/campaigns',
  tag: TAG,
  summary: 'Create a campaign',
  description:
    'Calls every lead of the audience (a snapshot taken when it starts) with the agent: each lead inside the window in its time ' +
    "zone (else the workspace's), at most max_concurrent calls at once and calls_per_minute starts, within the workspace's " +
    "concurrent-call cap; leads on the do-not-call list are skipped and counted. Per-lead data (the lead's fields and custom " +
    'fields) reaches each call as its request_data. status is scheduled when start_at is ahead, else running.',
  auth: 'apiKey',
  idempotent: true,
  body: CreateCampaignBody,
  example: { body: { name: 'Renewals', agent: EXAMPLE_ID, audience: { tag: 'renewal' }, max_concurrent: 5, calls_per_minute: 30 } },
  links: { Get: { operationId: 'getV1CampaignsId', parameters: { id: '$response.body#/campaign_id' }, description: 'The new campaign' } },
  responses: {
    200: { description: 'The campaign started (or scheduled)', schema: CampaignState },
    400: { description: 'A missing or invalid field' },
    404: { description: "The agent, a lead of lead_ids or the import is not the workspace's" },
    503: { description: 'The workflow engine did not accept the start; retry the request' },
  },
  namesRun: {},
  async handler(input) {
    const { name, agent, ...spec } = input.body;
    return answerNamingRun(input, await createCampaign(serviceDeps(input.deps), workspaceOf(input), { name, agent: agent.toLowerCase(), spec }));
  },
});

/** GET /v1/campaigns: the workspace's campaigns, newest first. */
const listCampaignsRoute = defineRoute({
  method: 'get',
  path: '/v1/campaigns',
  tag: TAG,
  summary: 'List campaigns',
  description: 'Newest first, each with its live counts; pass next_cursor as cursor for the next page.',
  auth: 'apiKey',
  query: z.object({ limit: PageLimit.optional(), cursor: PageCursor.optional() }),
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: EXAMPLE_ID }) } },
  responses: {
    200: { description: 'A page of campaigns', schema: z.object({ status: z.literal('success'), campaigns: z.array(Campaign), next_cursor: NextCursor }) },
    400: { description: 'A malformed limit or cursor' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { db } = input.deps;
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listCampaigns(db, ws, limit, after));
    const campaigns = await Promise.all(page.map(async (c) => presentCampaign(c, countsOf(await leadCounts(db, c.id)))));
    return { status: 'success' as const, campaigns, next_cursor };
  },
});

/** GET /v1/campaigns/{id}: one campaign with its live counts. */
const getCampaignRoute = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id',
  tag: TAG,
  summary: 'Get a campaign',
  description: "Its status, live counts by state and outcome, start and end times and an estimate of the end. Another workspace's campaign is a 404.",
  auth: 'apiKey',
  example: { params: { id: EXAMPLE_ID } },
  responses: {
    200: { description: 'The campaign', schema: z.object({ status: z.literal('success'), campaign: Campaign }) },
    404: { description: CAMPAIGN_NOT_FOUND },
  },
  async handler(input) {
    return { status: 'success' as const, campaign: await campaignView(input.deps.db, workspaceOf(input), idOf(input.params)) };
  },
});

const CallsCursor = z
  .string()
  .regex(/^[0-9]{1,9}$/, 'invalid cursor')
  .describe('next_cursor of the previous page');
const LEAD_STATE: Record<string, z.infer<typeof CampaignLead>['state']> = {
  pending: 'pending',
  waiting: 'waiting_for_window',
  dialing: 'dialing',
  done: 'done',
};

/** GET /v1/campaigns/{id}/calls: the campaign's leads in audience order, each with its calls and outcome. */
const listCampaignCallsRoute = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id/calls',
  tag: TAG,
  summary: "List a campaign's leads and their calls",
  description:
    'In audience order, each lead with its state, outcome (skip_reason for skipped ones) and calls (oldest first); pass next_cursor as cursor for the next page.',
  auth: 'apiKey',
  query: z.object({ limit: PageLimit.optional(), cursor: CallsCursor.optional() }),
  example: { params: { id: EXAMPLE_ID }, query: { limit: 50, cursor: '50' } },
  responses: {
    200: { description: 'A page of leads', schema: z.object({ status: z.literal('success'), leads: z.array(CampaignLead), next_cursor: NextCursor }) },
    400: { description: 'A malformed limit or cursor' },
    404: { description: CAMPAIGN_NOT_FOUND },
  },
  async handler(input) {
    const c = await campaignOf(input.deps.db, workspaceOf(input), idOf(input.params));
    const limit = input.query.limit ?? DEFAULT_PAGE_LIMIT;
    const rows = await leadCallsPage(input.deps.db, c.id, Number(input.query.cursor ?? 0), limit + 1);
    const page = rows.slice(0, limit);
    const leads = page.map((r) => ({
      lead_id: r.lead_id,
      state: LEAD_STATE[r.state]!,
      outcome: r.outcome,
      skip_reason: r.reason,
      attempts: r.attempts,
      calls: r.calls,
    }));
    return { status: 'success' as const, leads, next_cursor: rows.length > limit ? String(page.at(-1)!.position) : null };
  },
});

const CONTROL_TEXT: Record<CampaignControl, string> = {
  pause: 'Pause a campaign: no new call starts (within seconds); calls in progress finish. Answers paused.',
  resume: 'Resume a paused campaign. Answers running (scheduled while its start_at is still ahead).',
  cancel: 'Cancel a campaign: no new call starts, calls in progress are hung up (outcome canceled), leads not called yet count as canceled. Answers canceled.',
};

const controlRoute = (action: CampaignControl) =>
  defineRoute({
    method: 'post',
    path: `/v1/campaigns/:id/${action}`,
    tag: TAG,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a campaign`,
    description: CONTROL_TEXT[action],
    auth: 'apiKey',
    idempotent: true,
    example: { params: { id: EXAMPLE_ID } },
    responses: {
      200: { description: 'The new state', schema: CampaignState },
      404: { description: CAMPAIGN_NOT_FOUND },
      ...ended,
      503: { description: 'The workflow engine is unavailable; retry' },
    },
    namesRun: {},
    handler: async (input) => answerNamingRun(input, await controlCampaign(serviceDeps(input.deps), workspaceOf(input), idOf(input.params), action)),
  });

const pauseCampaignRoute = controlRoute('pause');
const resumeCampaignRoute = controlRoute('resume');
const cancelCampaignRoute = controlRoute('cancel');

/** Every campaign route, in the document's order. */
export const campaignRoutes: Route<any, any>[] = [
  createCampaignRoute,
  listCampaignsRoute,
  getCampaignRoute,
  listCampaignCallsRoute,
  pauseCampaignRoute,
  resumeCampaignRoute,
  cancelCampaignRoute,
];
