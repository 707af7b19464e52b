// A campaign's run (id `campaign:<id>`): calls its audience through outboundCall children, paced, windowed, resumable.
import {
  CancellationScope,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  executeChild,
  deprecatePatch,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { CampaignActivities } from '../../activities/campaigns';
import { callsAgain, leadOutcomeOf } from '../../src/campaigns/outcome';
import { nextStartSlot } from '../../src/campaigns/pacing';
import type { CampaignRunInput, DueLead } from '../../src/campaigns/types';
import { parseIsoDuration } from '../../src/schedule/duration';
import { callWorkflowId } from '../../src/temporal/ids';
import { runSearchAttributes, SA } from '../../src/temporal/search-attribute-keys';
import { outboundCall } from '../calls/outbound-call';
import { campaignControlSignal } from './campaign-messages';
import { publishCampaignEvent } from './events';

/** Database work: short, retried until the database answers. */
const data = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Calls one run starts before it continues as new: about 25 history events each keeps a run near 5,000. */
const CALLS_PER_RUN = 200;

/** The calls queue next to the journeys one the campaign runs on (same prefix). */
const callsQueue = (): string => {
  const tq = workflowInfo().taskQueue;
  return tq.endsWith('journeys') ? `${tq.slice(0, -'journeys'.length)}calls` : tq;
};

/**
 * Waits for start_at, then calls every lead of the audience snapshot: at most max_concurrent calls at once and
 * calls_per_minute starts, each lead inside its own window (leads outside theirs wait without holding a place),
 * again per retries. Each call is an outboundCall child (the call admission: do-not-call, caller id, the workspace's
 * cap). Pause stops new calls; cancel also hangs up the calls in progress. Continues as new every CALLS_PER_RUN
 * calls once the calls in progress ended; the database holds every lead's state between runs.
 */
export async function campaignRun(input: CampaignRunInput): Promise<{ status: 'completed' | 'canceled' }> {
  const { campaignId, workspaceId, agentId, spec } = input;
  const carry = input.carry ?? { started: false, paused: false, canceled: false, lastStartMs: 0, runs: 0 };
  let { paused, canceled } = carry;
  setHandler(campaignControlSignal, (c) => {
    if (c === 'cancel') canceled = true;
    else paused = c === 'pause';
  });
  const gapMs = spec.calls_per_minute ? 60_000 / spec.calls_per_minute : 0;
  // Starts take slots one gap apart, a late timer's missed ones made up (src/campaigns/pacing.ts). Deprecated patch
  // campaign-pacing-catch-up (docs/workflow-versioning.md): runs from before it left a gap after each actual start.
  deprecatePatch('campaign-pacing-catch-up');
  const spacingMs = spec.retries ? parseIsoDuration(spec.retries.spacing)! : 0;
  // "None left" only from a look that left no lead out as in flight: one left out may have ended meanwhile, due for a
  // retry. Deprecated patch campaign-done-none-left-out: runs from before it ended there, the retry lost.
  deprecatePatch('campaign-done-none-left-out');

  if (!carry.started) {
    await data.openCampaign(input);
    const wait = spec.start_at ? Date.parse(spec.start_at) - Date.now() : 0;
    if (wait > 0) await condition(() => canceled, wait);
    await condition(() => canceled || !paused);
    if (!canceled) {
      await data.campaignSetStatus({ campaignId, status: 'running', from: ['scheduled', 'running'] });
      await publishCampaignEvent({ workspaceId, campaignId, type: 'campaign.started' }, agentId);
    }
  }

  const calls = new CancellationScope();
  const inflight = new Set<number>();
  const running = new Set<Promise<void>>();
  let lastStart = carry.lastStartMs;
  let startedHere = 0;
  let queue: DueLead[] = [];
  let done = false;

  /** One call of one lead, recorded before it starts and when it ends (the lead due again after spacing, or done). */
  const callLead = async (lead: DueLead) => {
    const callId = uuid4();
    const attempt = lead.attempts + 1;
    await data.campaignCallStarting({ campaignId, position: lead.position, callId, attempt });
    let outcome = 'failed';
    let endedReason: string | undefined;
    try {
      const r = await calls.run(() =>
        executeChild(outboundCall, {
          workflowId: callWorkflowId(callId),
          taskQueue: callsQueue(),
          args: [
            {
              callId,
              workspaceId,
              agentId,
              to: lead.phone,
              leadId: lead.leadId,
              requestData: lead.requestData,
              waitForSlot: true,
              source: 'campaign',
              ...(spec.from ? { from: spec.from } : {}),
              ...(spec.window ? { window: spec.window } : {}),
            },
          ],
          typedSearchAttributes: runSearchAttributes.outboundCall({ workspaceId, callId, agentId, leadId: lead.leadId, campaignId }),
          parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        }),
      );
      outcome = r.outcome;
      endedReason = r.endedReason;
    } catch (err) {
      if (isCancellation(err)) outcome = 'canceled';
      else if (!(err instanceof ChildWorkflowFailure)) throw err;
    }
    const lo = leadOutcomeOf(outcome, endedReason);
    const again = !canceled && callsAgain(lo.outcome, attempt, spec.retries, spec.retry_on);
    await data.campaignCallEnded({
      campaignId,
      position: lead.position,
      callId,
      callOutcome: outcome,
      endedReason: endedReason ?? null,
      ...lo,
      retryAtMs: again ? Date.now() + spacingMs : null,
    });
  };

  while (!canceled) {
    if (paused) {
      await data.campaignSetStatus({ campaignId, status: 'paused', from: ['running'] });
      await condition(() => canceled || !paused);
      if (!canceled) await data.campaignSetStatus({ campaignId, status: 'running', from: ['paused'] });
      continue;
    }
    if (inflight.size >= spec.max_concurrent) {
      await condition(() => canceled || paused || inflight.size < spec.max_concurrent);
      continue;
    }
    if (startedHere >= (input.callsPerRun ?? CALLS_PER_RUN) || workflowInfo().continueAsNewSuggested) break;
    const slot = nextStartSlot(lastStart, gapMs, Date.now());
    const pace = slot - Date.now();
    if (gapMs && pace > 0) {
      await condition(() => canceled || paused, pace);
      continue;
    }
    if (!queue.length) {
      const ended = inflight.size;
      // Leads in flight are left out: a lead's start is recorded by its own activity, which may not have run yet.
      const r = await data.campaignDueLeads({
        campaignId,
        workspaceId,
        agentId,
        window: spec.window,
        nowMs: Date.now(),
        limit: spec.max_concurrent - inflight.size,
        busy: [...inflight],
      });
      queue = r.due;
      if (!queue.length) {
        if (r.nextAtMs === null && inflight.size === 0 && ended === 0) {
          done = true;
          break;
        }
        // Until the next lead is due (a window opens, a retry's spacing passes) or a call ends (it may retry).
        const woken = () => canceled || paused || inflight.size < ended;
        if (r.nextAtMs === null) await condition(woken);
        else if (r.nextAtMs > Date.now()) await condition(woken, r.nextAtMs - Date.now());
        continue;
      }
    }
    const lead = queue.shift()!;
    inflight.add(lead.position);
    lastStart = gapMs ? nextStartSlot(lastStart, gapMs, Date.now()) : Date.now();
    startedHere++;
    const p: Promise<void> = callLead(lead).finally(() => {
      inflight.delete(lead.position);
      running.delete(p);
    });
    running.add(p);
  }

  // A cancel may come while the calls in progress end before a continue-as-new: it hangs them up too.
  await condition(() => canceled || running.size === 0);
  if (canceled) calls.cancel();
  await Promise.all([...running]);
  if (!canceled && !done) {
    await continueAsNew<typeof campaignRun>({ ...input, carry: { started: true, paused, canceled, lastStartMs: lastStart, runs: carry.runs + 1 } });
  }
  const status = canceled ? 'canceled' : 'completed';
  await data.campaignFinish({ campaignId, status });
  // Operators find campaigns by how they ended, as journeys and calls. Deprecated patch.
  deprecatePatch('campaign-outcome-search-attribute');
  upsertSearchAttributes([{ key: SA.Outcome, value: status }]);
  await publishCampaignEvent({ workspaceId, campaignId, type: 'campaign.completed' }, agentId);
  return { status };
}
