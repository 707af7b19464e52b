// The journey paths that came with the trigger step (recorded by scripts/record-journey-fixtures.ts like the others):
// the enrollment that starts a delivery, and the deliverJourneyTrigger run itself.
import type { JourneyState } from '../workflows/journeys/journey-messages';
import { runIdOf, tenant, type PathContext, type RecordedRun } from './journey-fixture-helpers';

/** The trigger step's paths, by fixture name. */
export const triggerPaths: Record<string, (ctx: PathContext) => Promise<RecordedRun>> = {
  /** A trigger with a hook (its event saved, its delivery started as an abandoned child) and one without (no child). */
  async 'trigger-hooks'(ctx) {
    const t = await tenant(ctx, [
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'handoff', kind: 'trigger', name: 'Hand off' },
      { id: 'nobody', kind: 'trigger' },
      { id: 'stop', kind: 'end' },
    ]);
    const hook = await ctx.app.request('POST', '/v1/hooks', {
      key: t.apiKey,
      body: { journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${ctx.hooks}/trigger` },
    });
    if (hook.status !== 200) throw new Error(`subscribe answered ${hook.status} ${JSON.stringify(hook.body)}`);
    const { handle } = await t.enroll();
    const end = (await handle.result()) as JourneyState;
    const path = end.history.map((h) => `${h.step_id}:${h.outcome}`).join(' ');
    if (path !== 'start:done handoff:done nobody:done stop:done') throw new Error(`trigger-hooks run went ${path}`);
    return runIdOf(handle);
  },

  /** The deliverJourneyTrigger run a trigger step with one hook started, delivered to the receiver. */
  async 'trigger-delivered'(ctx) {
    const t = await tenant(ctx, [
      { id: 'handoff', kind: 'trigger', name: 'Hand off' },
      { id: 'stop', kind: 'end' },
    ]);
    const hook = await ctx.app.request('POST', '/v1/hooks', {
      key: t.apiKey,
      body: { journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${ctx.hooks}/trigger-delivered` },
    });
    if (hook.status !== 200) throw new Error(`subscribe answered ${hook.status} ${JSON.stringify(hook.body)}`);
    const { handle } = await t.enroll();
    await handle.result();
    const started = (await handle.fetchHistory()).events!.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)!;
    const delivery = ctx.app.temporal.client.workflow.getHandle(started.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!);
    const r = (await delivery.result()) as { delivered: number };
    if (r.delivered !== 1) throw new Error(`the trigger was delivered to ${r.delivered} hooks`);
    return runIdOf(delivery);
  },
};
