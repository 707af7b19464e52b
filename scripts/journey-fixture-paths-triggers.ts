// The journey path that came with the trigger step (recorded by scripts/record-journey-fixtures.ts like the others).
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
};
