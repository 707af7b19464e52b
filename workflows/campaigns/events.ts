// Campaign events, each delivered by a run of its own as call events are (a subscriber that is down holds up nothing).
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { CampaignActivities, CampaignEventInput } from '../../activities/campaigns';
import type { CampaignEventType } from '../../src/calls/events';
import { campaignEventWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes } from '../../src/temporal/search-attribute-keys';
import { childAttributesOf } from '../run-attributes';

/** Retried with backoff for up to a day, as call events. */
const events = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** The event id of one event of one campaign: the same on every retry and in every subscriber's delivery. */
export const campaignEventId = (campaignId: string, type: CampaignEventType) =>
  `evt_campaign_${campaignId}_${type === 'campaign.started' ? 'started' : 'completed'}`;

/** Delivers one campaign event (id `campaign-event:<eventId>`) until every subscriber took it or refused it for good. */
export async function deliverCampaignEvent(input: CampaignEventInput): Promise<{ delivered: number; refused: number }> {
  return events.publishCampaignEvent(input);
}

/** Starts an event's delivery (searchable by the campaign's ids, its agent's included); a second start of the same event is the same run and is ignored. */
export async function publishCampaignEvent(e: Omit<CampaignEventInput, 'eventId'>, agentId: string): Promise<void> {
  const eventId = campaignEventId(e.campaignId, e.type);
  try {
    await startChild(deliverCampaignEvent, {
      workflowId: campaignEventWorkflowId(eventId),
      args: [{ ...e, eventId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...childAttributesOf(() =>
        runSearchAttributes.deliverCampaignEvent({
          workspaceId: e.workspaceId,
          campaignId: e.campaignId,
          agentId,
        }),
      ),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
