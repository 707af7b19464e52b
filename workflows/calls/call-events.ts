// Call events: each one delivered by a workflow of its own, so a subscriber that is down never holds up the call.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { CallEventActivities, CallEventInput } from '../../activities/calls/call-events';
import { callEventId } from '../../src/calls/events';
import { callEventWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes, SA } from '../../src/temporal/search-attribute-keys';
import { childAttributes } from '../run-attributes';

/** Subscribers that fail with 5xx, 408, 429 or a network error get the event again with backoff, for up to a day. */
const events = proxyActivities<CallEventActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Delivers one call event (id `call-event:<eventId>`) until every subscriber took it or refused it for good. */
export async function deliverCallEvent(input: CallEventInput): Promise<{ delivered: number; refused: number }> {
  return events.publishCallEvent(input);
}

/**
 * Starts the delivery of a call event from a workflow and returns once it has started (its event id is derived from
 * the call and the type, so a second start for the same event is the same workflow and is ignored). The delivery
 * carries the call's own ids (its journey or campaign included) as search attributes.
 */
export async function publishCallEvent(e: Omit<CallEventInput, 'eventId'>): Promise<string> {
  const eventId = callEventId(e.callId, e.type);
  try {
    await startChild(deliverCallEvent, {
      workflowId: callEventWorkflowId(eventId),
      args: [{ ...e, eventId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...childAttributes(() => {
        const own = workflowInfo().typedSearchAttributes;
        return runSearchAttributes.deliverCallEvent({
          workspaceId: e.workspaceId,
          callId: e.callId,
          agentId: own.get(SA.AgentId),
          leadId: own.get(SA.LeadId),
          journeyId: own.get(SA.JourneyId),
          campaignId: own.get(SA.CampaignId),
        });
      }),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return eventId;
}
