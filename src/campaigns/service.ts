// Creating campaigns and steering their runs: the api's and the CLI's one way to do either.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/pool';
import { DomainError } from '../core/errors';
import { campaignWorkflowId } from '../temporal/ids';
import { runSearchAttributes } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';
import { startWorkflow, WORKFLOW } from '../temporal/workflow-types';
import { engineUnreachable } from '../temporal/unreachable';
import {
  campaignAgent,
  countWorkspaceLeads,
  findCampaign,
  importExists,
  insertCampaign,
  lockCampaign,
  setCampaignStatus,
  type CampaignRow,
} from './db/campaigns';
import { leadCounts } from './db/run';
import { countsOf, presentCampaign } from './present';
import { campaignControlSignal } from '../../workflows/campaigns/campaign-messages';
import { ENDED, type CampaignControl, type CampaignRunInput, type CampaignSpec, type CampaignStatus } from './types';

export const CAMPAIGN_NOT_FOUND = 'Campaign not found';

/** What the service needs: the database and a Temporal client with the task-queue prefix. */
export interface CampaignDeps {
  db: Db;
  client: Client;
  taskQueuePrefix: string;
}

/** Checks the agent and the audience, starts the run and records the campaign; its id and status, and its run's id. */
export async function createCampaign(d: CampaignDeps, workspaceId: string, c: { name: string; agent: string; spec: CampaignSpec }, now = Date.now()) {
  if (!(await campaignAgent(d.db, workspaceId, c.agent))) throw new DomainError('agent_not_found', 'Agent not found');
  const a = c.spec.audience;
  if ('lead_ids' in a && (await countWorkspaceLeads(d.db, workspaceId, a.lead_ids)) !== new Set(a.lead_ids).size) {
    throw new DomainError('lead_not_found', 'audience.lead_ids: a lead is not on file in this workspace');
  }
  if ('import_id' in a && !(await importExists(d.db, workspaceId, a.import_id))) throw new DomainError('import_not_found', 'Import not found');
  const id = randomUUID();
  const status: CampaignStatus = c.spec.start_at && Date.parse(c.spec.start_at) > now ? 'scheduled' : 'running';
  const input: CampaignRunInput = { campaignId: id, workspaceId, agentId: c.agent, name: c.name, spec: c.spec };
  const workflowId = campaignWorkflowId(id);
  // The run first: it records the campaign itself too, so a crash between the two loses nothing.
  try {
    await startWorkflow(d.client, WORKFLOW.campaignRun, {
      workflowId,
      taskQueue: taskQueue('journeys', d.taskQueuePrefix),
      args: [input],
      typedSearchAttributes: runSearchAttributes.campaignRun({ workspaceId, campaignId: id, agentId: c.agent }),
    });
  } catch (err) {
    if (engineUnreachable(err)) throw new DomainError('workflow_unavailable', 'The workflow engine is unavailable; retry the request');
    throw err;
  }
  await insertCampaign(d.db, { id, workspaceId, name: c.name, agentId: c.agent, spec: c.spec, status });
  return { campaign_id: id, status, workflowId };
}

/** The workspace's campaign or campaign_not_found. */
export async function campaignOf(db: Db, workspaceId: string, id: string): Promise<CampaignRow> {
  const c = await findCampaign(db, workspaceId, id);
  if (!c) throw new DomainError('campaign_not_found', CAMPAIGN_NOT_FOUND);
  return c;
}

/** The campaign's body with its live counts. */
export async function campaignView(db: Db, workspaceId: string, id: string) {
  const c = await campaignOf(db, workspaceId, id);
  return presentCampaign(c, countsOf(await leadCounts(db, c.id)));
}

const ended = (c: CampaignRow) => new DomainError('campaign_ended', `Campaign already ${c.status}`);

/** The status a control leads to: a resumed campaign whose start_at is still ahead is scheduled again. */
function statusAfter(c: CampaignRow, action: CampaignControl, now: number): CampaignStatus {
  if (action === 'pause') return 'paused';
  if (action === 'cancel') return 'canceled';
  return !c.started_at && c.spec.start_at && Date.parse(c.spec.start_at) > now ? 'scheduled' : 'running';
}

/**
 * Pauses, resumes or cancels a campaign that has not ended (campaign_ended otherwise); its id and new status, and its
 * run's id. Controls of one campaign take turns (its row locked from the read to the status write): the run obeys the
 * control signalled last, so the status written last must be that control's. Two at once could signal in one order
 * and write in the other, leaving a campaign shown paused while its run dials.
 */
export async function controlCampaign(d: CampaignDeps, workspaceId: string, id: string, action: CampaignControl, now = Date.now()) {
  return d.db.tx(
    async (q) => {
      const c = await lockCampaign(q, workspaceId, id);
      if (!c) throw new DomainError('campaign_not_found', CAMPAIGN_NOT_FOUND);
      if (ENDED.includes(c.status)) throw ended(c);
      const workflowId = campaignWorkflowId(id);
      try {
        await d.client.workflow.getHandle(workflowId).signal(campaignControlSignal, action);
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) throw ended(c);
        if (engineUnreachable(err)) throw new DomainError('workflow_unavailable', 'The workflow engine is unavailable; retry the request');
        throw err;
      }
      const next = statusAfter(c, action, now);
      const row = await setCampaignStatus(q, id, next, ['scheduled', 'running', 'paused']);
      if (row && ENDED.includes(row.status) && row.status !== next) throw ended(row);
      return { campaign_id: id, status: next, workflowId };
    },
    // It signals the run while holding the lock: run once, never again after a deadlock.
    { once: true },
  );
}
