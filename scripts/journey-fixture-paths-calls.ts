// The journey paths of the call step (recorded by scripts/record-journey-fixtures.ts like the others, under
// test/fixtures/journey-history-<name>.json). They need the carrier simulator in the recording stack.
import type { JourneyState } from '../workflows/journeys/journey-messages';
import { createAgent, createPhoneGroup } from '../src/agents/db/agents';
import { runIdOf, tenant, type PathContext, type RecordedRun } from './journey-fixture-helpers';

/** The call step's paths, by fixture name. */
export const callPaths: Record<string, (ctx: PathContext) => Promise<RecordedRun>> = {
  /**
   * A call nobody answers (simulator rule 0003), called again once by the step's retries after a timer, then a
   * branch on no_answer and a tag: two child workflows, a timer and the journey-call-step patch marker.
   */
  async 'call-no-answer'(ctx) {
    const ws = await ctx.app.newWorkspace({ superuser: true });
    const group = await createPhoneGroup(ctx.app.db, ws.workspaceId, { name: 'outbound', numbers: ['17145559000'] });
    const agent = await createAgent(ctx.app.db, ws.workspaceId, { name: 'Fixture agent', phoneGroupId: group.id });
    const t = await tenant(
      ctx,
      [
        {
          id: 'ring',
          kind: 'call',
          agent: agent.id,
          window: { start: '00:00', end: '23:59' },
          retries: { attempts: 1, spacing: 'PT1S' },
          retry_on: ['no_answer'],
        },
        { id: 'answered', kind: 'branch', cases: [{ when: { outcome: 'no_answer' }, goto: 'unreachable' }], else: 'stop' },
        { id: 'unreachable', kind: 'tag', tag: 'unreachable' },
        { id: 'stop', kind: 'end' },
      ],
      ws,
    );
    const { handle } = await t.enroll({ phone: '17145550003' });
    const end = (await handle.result()) as JourneyState;
    const path = end.history.map((h) => `${h.step_id}:${h.outcome}`).join(' ');
    if (path !== 'ring:no_answer answered:done unreachable:done stop:done') throw new Error(`call-no-answer run went ${path}`);
    return runIdOf(handle);
  },
};
