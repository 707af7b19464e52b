// The journey step `trigger`: each run's event is delivered by a workflow of its own, so a subscriber that is down
// never holds up the journey.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { TriggerDeliverySummary, JourneyTriggerActivities } from '../../activities/journeys/journey-triggers';
import type { StepContext } from '../../activities/journeys/journeys';
import type { StepOf } from '../../src/journeys/schema';
import { TRIGGER_DELIVERY_ATTEMPTS, triggerEventId, type TriggerEventInput } from '../../src/journeys/trigger';
import { journeyTriggerWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes } from '../../src/temporal/search-attribute-keys';
import { childAttributesOf } from '../run-attributes';
import { workflowClock, type JourneyClock } from './journey-clock';

/** Database activities: short, retried until the database answers. */
const data = proxyActivities<JourneyTriggerActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Hooks failing with 5xx, 408, 429 or a network error get the event again with backoff; the last attempt records them as failed. */
const hooks = proxyActivities<JourneyTriggerActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: TRIGGER_DELIVERY_ATTEMPTS },
});

/** Delivers one trigger event (id `journey-trigger:<eventId>`) until every hook of the step took, refused or failed it. */
export async function deliverJourneyTrigger(input: TriggerEventInput): Promise<TriggerDeliverySummary> {
  return hooks.publishJourneyTrigger(input);
}

/**
 * Saves the step's data (when the step has hooks), starts its delivery and goes on at once (outcome done). The event
 * id comes from the enrollment and the step run's number, so a replayed or repeated start is the same delivery
 * workflow and is ignored. The lead's data stays out of this history: the activity saves it, the delivery reads it.
 */
export async function runTriggerStep(
  step: StepOf<'trigger'>,
  ctx: StepContext,
  clock: JourneyClock = workflowClock,
): Promise<{ outcome: string; detail: string }> {
  const eventId = triggerEventId(ctx.enrollmentId, ctx.seq);
  const { hooks } = await data.journeyTriggerEvent({ ...ctx, eventId, ...(step.name !== undefined ? { stepName: step.name } : {}) });
  if (hooks === 0) return { outcome: 'done', detail: `event ${eventId}: no subscribers` };
  // A preview's recorder counted the subscribers and saved nothing: no delivery starts.
  if (clock.preview) return { outcome: 'done', detail: `not sent: would deliver event ${eventId} to ${hooks} subscriber(s)` };
  const input: TriggerEventInput = { workspaceId: ctx.workspaceId, journeyId: ctx.journeyId, stepId: step.id, eventId };
  try {
    await startChild(deliverJourneyTrigger, {
      workflowId: journeyTriggerWorkflowId(eventId),
      args: [input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...childAttributesOf(() => runSearchAttributes.deliverJourneyTrigger({ workspaceId: ctx.workspaceId, journeyId: ctx.journeyId, leadId: ctx.leadId })),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return { outcome: 'done', detail: `event ${eventId}` };
}
