import { z } from 'zod';
import { DomainError } from '../../core/errors';
import { badRequest, notFound } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { defineRoute, workspaceOf, type RouteInput } from '../../http/route';
import { nameRun } from '../../http/run-link';
import { findLeadById } from '../../leads/db/leads';
import { LEAD_NOT_FOUND } from '../../leads/http/leads';
import { normalizeRecordPhone, splitRecordFor, INVALID_PHONE } from '../../leads/record';
import { workspaceRegion } from '../../leads/region';
import type { Queryable } from '../../db/pool';
import { latestJourney } from '../enroll';
import { previewJourney, type PreviewSubject } from '../preview';
import { JOURNEY_NOT_FOUND } from './journey-list';
import { PreviewAnswer, PreviewBody } from './preview-schemas';

/** The lead a preview runs for: on file by id, or a record validated as sendtoworkflow's (phone required) and not stored. */
async function subjectOf(db: Queryable, ws: string, body: z.infer<typeof PreviewBody>): Promise<PreviewSubject> {
  if ((body.record === undefined) === (body.lead_id === undefined)) throw badRequest('record, lead_id: provide exactly one of them');
  if (body.lead_id !== undefined) {
    const lead = isUuid(body.lead_id) ? await findLeadById(db, ws, body.lead_id) : undefined;
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    return { leadId: lead.id };
  }
  const phone = normalizeRecordPhone(body.record!.phone, await workspaceRegion(db, ws));
  if (!phone) throw badRequest(`record.phone: ${INVALID_PHONE}`);
  const { standard, custom } = await splitRecordFor(db, ws, body.record!);
  const field = (k: 'first_name' | 'last_name' | 'email' | 'company' | 'timezone') => standard[k] ?? null;
  return {
    lead: {
      phone,
      first_name: field('first_name'),
      last_name: field('last_name'),
      email: field('email'),
      company: field('company'),
      timezone: field('timezone'),
      tags: [],
      custom_fields: custom,
    },
  };
}

async function preview(input: RouteInput<unknown, z.infer<typeof PreviewBody>>) {
  const ws = workspaceOf(input);
  const { db, config, temporal } = input.deps;
  const journey = await latestJourney(db, ws, input.params.id ?? '', input.deps.journeyVersions).catch((err: unknown) => {
    throw err instanceof DomainError && err.code === 'journey_not_found' ? notFound(JOURNEY_NOT_FOUND) : err;
  });
  const subject = await subjectOf(db, ws, input.body);
  const at = input.body.at !== undefined ? Date.parse(input.body.at) : Date.now();
  const answer = await previewJourney(
    { client: temporal.client, taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX, log: input.ctx.state.log },
    ws,
    journey,
    subject,
    at,
  );
  nameRun(input.ctx, config, answer.workflow_id);
  return answer;
}

/** POST /v1/journeys/{id}/preview: the steps the journey would take for one lead, run without side effects. */
export const previewJourneyRoute = defineRoute({
  method: 'post',
  path: '/v1/journeys/:id/preview',
  tag: 'Journeys',
  summary: 'Preview a journey for one lead',
  description:
    "Runs the journey's newest version for one lead (lead_id on file, or a record not stored) as an enrollment would, " +
    'but with recorder activities and a virtual clock starting at `at`: no call is placed, no webhook or trigger sent, no ' +
    'tag or field written, no automation run, no enrollment recorded, and waits take no time. Answers every step it would ' +
    'take, when, and why. Outcomes that cannot be known ahead (a call, an automation, a webhook) are assumed (a call: ' +
    'human; the others: their success) and the step says so; a branch lists each case and its target.',
  auth: 'apiKey',
  body: PreviewBody,
  example: { params: { id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' }, body: { lead_id: '8d7c6b5a-4e3f-4a1b-9c8d-7e6f5a4b3c2d', at: '2026-06-01T09:00:00Z' } },
  responses: {
    200: { description: 'The steps the run would take', schema: PreviewAnswer },
    400: { description: 'Both or neither of record and lead_id; a record without a valid phone; an invalid field; `at` not an ISO-8601 time' },
    404: { description: 'Journey not found (or another workspace\'s); lead_id not a lead of this workspace ("Lead not found")' },
    503: { description: 'The workflow engine did not run the preview in time; retry' },
  },
  namesRun: {},
  handler: preview,
});
