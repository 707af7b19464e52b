import { randomInt } from 'node:crypto';
import { importJourney } from '../../src/journeys/db/journeys';
import { findLeadById, type LeadRow } from '../../src/leads/db/leads';
import { normalizePhone } from '../../src/core/phone';
import { enrollmentWorkflowId } from '../../src/temporal/ids';
import { journeyStateQuery, type JourneyState } from '../../workflows/journeys/journey-messages';
import type { TestApp } from './stack';
import { eventually } from './webhook-receiver';

/** A valid US phone, different each call (national format, so the workspace region matters). */
export function newPhone(): string {
  for (;;) {
    const national = `212${randomInt(2, 10)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
    if (normalizePhone(national, 'US')) return national;
  }
}

/**
 * Stores a journey version (a new journey unless id is given) and returns its id and version, once the api's version
 * cache has it (the NOTIFY that tells the api arrives a moment after the import, as from the CLI).
 */
export async function importSteps(app: TestApp, workspaceId: string, steps: unknown[], id?: string) {
  const journey = await importJourney(app.db, workspaceId, { id, name: 'test journey', steps });
  await eventually(async () => (await app.journeyVersions.get(app.db, workspaceId, journey.id)) === journey.version, 10_000, 'the api to see the new version');
  return journey;
}

/** The enrollment run's handle. */
export const runOf = (app: TestApp, journeyId: string, leadId: string) => app.temporal.client.workflow.getHandle(enrollmentWorkflowId(journeyId, leadId));

/** Queries the journey state of the lead's run. */
export const stateOf = (app: TestApp, journeyId: string, leadId: string): Promise<JourneyState> => runOf(app, journeyId, leadId).query(journeyStateQuery);

/** Waits for the run to end and returns its final state. */
export const finished = (app: TestApp, journeyId: string, leadId: string): Promise<JourneyState> =>
  runOf(app, journeyId, leadId).result() as Promise<JourneyState>;

/** Enrollment rows of a lead, as the api lists them. */
export async function enrollmentRows(app: TestApp, leadId: string) {
  return app.db.query<{ id: string; status: string; current_step: string | null; journey_version: number; detail: string | null; run_id: string }>(
    'SELECT id, status, current_step, journey_version, detail, run_id FROM enrollments WHERE lead_id = $1 ORDER BY created_at',
    [leadId],
  );
}

/** Waits until the lead's enrollment rows satisfy pred. */
export const rowsWhen = (app: TestApp, leadId: string, pred: (rows: Awaited<ReturnType<typeof enrollmentRows>>) => boolean, what: string) =>
  eventually(
    async () => {
      const rows = await enrollmentRows(app, leadId);
      return pred(rows) && rows;
    },
    30_000,
    what,
  );

export async function leadRow(app: TestApp, workspaceId: string, leadId: string): Promise<LeadRow> {
  const lead = await findLeadById(app.db, workspaceId, leadId);
  if (!lead) throw new Error(`lead ${leadId} not found`);
  return lead;
}

/** A journey using every step kind once (a wait, a signed webhook to hooks/fixture, branches, a call skip, an automation failing: not connected). */
export const everyStepKind = (hooks: string) => [
  { id: 'hello', kind: 'tag', tag: 'hello' },
  { id: 'nap', kind: 'wait', duration: 'PT1S' },
  { id: 'set', kind: 'update_lead', fields: { company: 'Acme' } },
  { id: 'notify', kind: 'webhook', url: `${hooks}/fixture`, payload: { company: '{{lead.company}}' } },
  { id: 'delivered', kind: 'branch', cases: [{ when: { outcome: 'delivered' }, goto: 'acme' }], else: 'stop' },
  { id: 'acme', kind: 'branch', cases: [{ when: { field: 'company', equals: 'Acme' }, goto: 'ring' }], else: 'stop' },
  { id: 'ring', kind: 'call', agent_id: '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11' },
  { id: 'crm', kind: 'automation', automationType: 'hubspot', action: 'create_contact', params: {} },
  { id: 'bye', kind: 'untag', tag: 'hello' },
  { id: 'jump', kind: 'goto', target: 'stop' },
  { id: 'stop', kind: 'end' },
];
