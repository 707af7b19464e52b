// The journey `call` step: the lead is called by the outboundCall workflow, as a child, and called again per the step.
import {
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  deprecatePatch,
  proxyLocalActivities,
  uuid4,
  workflowInfo,
  type ActivityInterfaceFor,
} from '@temporalio/workflow';
import type { JourneyActivities, StepContext } from '../../activities/journeys/journeys';
import type { JourneyPreviewActivities } from '../../activities/journeys/journey-preview';
import { parseIsoDuration } from '../../src/schedule/duration';
import type { CallOutcome, StepOf } from '../../src/journeys/schema';
import { callWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes } from '../../src/temporal/search-attribute-keys';
import { childAttributesOf } from '../run-attributes';
import { outboundCall } from '../calls/outbound-call';
import type { OutboundCallInput } from '../calls/outbound-call-types';
import { workflowClock, type JourneyClock } from './journey-clock';

/** Outcomes that call again when the step has retries but no retry_on. */
const DEFAULT_RETRY_ON: readonly CallOutcome[] = ['no_answer', 'busy'];

/** The outcome a preview assumes for a call (the first the platform knows): what really happens is not knowable. */
const PREVIEW_CALL_OUTCOME: CallOutcome = 'human';

/** Registered only on the preview task queue's worker. */
const previewData = proxyLocalActivities<JourneyPreviewActivities>({ startToCloseTimeout: '15 seconds', retry: { maximumAttempts: 3 } });

/** The calls task queue next to the journeys one the run is on (same prefix). */
const callsQueue = (): string => {
  const tq = workflowInfo().taskQueue;
  return tq.endsWith('journeys') ? `${tq.slice(0, -'journeys'.length)}calls` : tq;
};

/** One call as a child workflow (searchable by the journey); its failure (not a cancellation of this run) is the outcome `failed`. */
async function placeCall(input: OutboundCallInput, journeyId: string): Promise<{ outcome: CallOutcome; detail: string }> {
  try {
    const r = await executeChild(outboundCall, {
      workflowId: callWorkflowId(input.callId),
      taskQueue: callsQueue(),
      args: [input],
      ...childAttributesOf(() =>
        runSearchAttributes.outboundCall({ workspaceId: input.workspaceId, callId: input.callId, agentId: input.agentId, leadId: input.leadId, journeyId }),
      ),
      // An enrollment that ends mid-call hangs the call up properly (the slot is released), never kills it.
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    });
    return { outcome: r.outcome, detail: `call ${input.callId}: ${r.outcome}${r.endedReason && r.endedReason !== r.outcome ? ` (${r.endedReason})` : ''}` };
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ChildWorkflowFailure)) throw err;
    return { outcome: 'failed', detail: `call ${input.callId}: failed (${err.cause?.message ?? err.message})`.slice(0, 500) };
  }
}

/** A preview's call: judged as the call would be at the virtual time, its window waited for on the virtual clock; none placed. */
async function previewCall(input: OutboundCallInput, ctx: StepContext, clock: JourneyClock): Promise<{ outcome: CallOutcome; detail: string }> {
  const judged = await previewData.journeyPreviewCall({ ...input, now: clock.now(), ...(ctx.preview?.lead ? { lead: ctx.preview.lead } : {}) });
  if (!judged.ok) return { outcome: 'failed', detail: `not placed: ${judged.reason}` };
  await clock.sleep(judged.opensInMs);
  const waited = judged.opensInMs > 0 ? `, waited ${judged.opensInMs} ms for it` : '';
  const when = new Date(clock.now()).toISOString();
  return {
    outcome: PREVIEW_CALL_OUTCOME,
    detail: `not placed: would call at ${when} (window ${judged.window.start}-${judged.window.end} ${judged.timeZone}${waited}); outcome not knowable, assumed ${PREVIEW_CALL_OUTCOME}`,
  };
}

/**
 * Runs a call step: skipped (dnc) for a lead on the do-not-call list, failed (unknown_agent) when the workspace has
 * no such agent; else calls, and calls again after `spacing`
 * while the outcome is one of retry_on and attempts remain. Leaves the last call's outcome.
 */
export async function runCallStep(
  step: StepOf<'call'>,
  ctx: StepContext,
  data: ActivityInterfaceFor<JourneyActivities>,
  clock: JourneyClock = workflowClock,
): Promise<{ outcome: string; detail?: string }> {
  // Deprecated patch (docs/workflow-versioning.md): runs from before it skipped the step.
  deprecatePatch('journey-call-step');
  const agentId = (step.agent ?? step.agent_id)!;
  const target = await data.journeyCallTarget({ ...ctx, agentId });
  if (target.skip === 'dnc') return { outcome: 'skipped', detail: 'dnc' };
  if (target.skip !== null) return { outcome: 'failed', detail: `${target.skip}: the workspace has no agent ${agentId}` };
  const retryOn: readonly string[] = step.retry_on ?? DEFAULT_RETRY_ON;
  const spacing = step.retries ? parseIsoDuration(step.retries.spacing)! : 0;
  const details: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const input: OutboundCallInput = {
      callId: uuid4(),
      workspaceId: ctx.workspaceId,
      agentId,
      to: target.phone,
      leadId: ctx.leadId,
      ...(step.window ? { window: step.window } : {}),
      waitForSlot: true,
      source: 'journey',
    };
    const r = await (clock.preview ? previewCall(input, ctx, clock) : placeCall(input, ctx.journeyId));
    details.push(r.detail);
    if (!step.retries || attempt >= step.retries.attempts || !retryOn.includes(r.outcome)) {
      return { outcome: r.outcome, detail: details.join('; ').slice(0, 1000) };
    }
    await clock.sleep(spacing);
  }
}
