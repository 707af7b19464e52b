import { z } from 'zod';
import type { Queryable } from '../../db/pool';
import { listLeadEnrollments, presentEnrollment } from '../db/enrollments';
import { findLeadById, findLeadByPhone, findOrCreateLead, updateLead, type LeadRow } from '../../leads/db/leads';
import { badRequest, notFound } from '../../http/api-error';
import { latestJourney, startEnrollment } from '../enroll';
import { normalizeRecordPhone, splitRecordFor } from '../../leads/record';
import { workspaceRegion } from '../../leads/region';
import { defineRoute, workspaceOf, type RouteInput } from '../../http/route';
import { nameRun } from '../../http/run-link';
import { ADDED, ALREADY_IN, Enrollments, SendBody, Sent } from './enrollment-schemas';
import { LEAD_NOT_FOUND } from '../../leads/http/leads';
import { isUuid } from '../../core/ids';

const TAG = 'Journeys';
const LEAD_FAILED = 'Could not find or create lead';

const sendResponses = {
  200: {
    description: `Enrolled (workflow_assigned true), or the lead was already running this journey: no second run starts, workflow_assigned false, message "${ALREADY_IN}"`,
    schema: Sent,
  },
  400: { description: 'Both or neither of record and lead_id; a record without a valid phone ("Could not find or create lead"); an invalid field' },
  404: { description: '"Workflow not found" (unknown journey, or another workspace\'s), or lead_id not on file ("Could not find or create lead")' },
  503: { description: 'The workflow engine did not accept the start; the lead is saved, retry the request' },
};

type SendInput = RouteInput<unknown, z.infer<typeof SendBody>>;

async function byId(db: Queryable, ws: string, id: string): Promise<LeadRow> {
  const lead = isUuid(id) ? await findLeadById(db, ws, id) : undefined;
  if (!lead) throw notFound(LEAD_FAILED);
  return lead;
}

async function splitOf(db: Queryable, ws: string, record: Record<string, unknown>) {
  const { standard, ...rest } = await splitRecordFor(db, ws, record);
  const { phone: _phone, ...fields } = standard;
  return { fields, ...rest };
}

/**
 * The record's lead: matched by phone, else created from the record. POST enrolls a matched lead as it is on file
 * (the spec's rule 4: other fields ignored, even invalid ones); PATCH updates the supplied fields first.
 */
export async function byRecord(db: Queryable, ws: string, record: Record<string, unknown>, update: boolean): Promise<{ lead: LeadRow; ignored: string[] }> {
  const phone = normalizeRecordPhone(record.phone, await workspaceRegion(db, ws));
  if (!phone) throw badRequest(LEAD_FAILED);
  let split;
  try {
    split = await splitOf(db, ws, record);
  } catch (err) {
    const onFile = update ? undefined : await findLeadByPhone(db, ws, phone);
    if (!onFile) throw err;
    return { lead: onFile, ignored: [] };
  }
  // Enrolling new leads is the common case: the insert comes first (one round trip), the lead on file is the fallback.
  const found = await findOrCreateLead(db, ws, phone, split.fields, split.custom, { insertFirst: true });
  if (found.created) return { lead: found.lead, ignored: split.ignored };
  if (!update) return { lead: found.lead, ignored: [] };
  const changed = Object.keys(split.fields).length || Object.keys(split.custom).length;
  return { lead: (changed && (await updateLead(db, ws, found.lead.id, split.fields, split.custom))) || found.lead, ignored: split.ignored };
}

/** Resolves the lead by the spec's rules (update: the PATCH variant), starts its run and answers the spec's body. */
async function send(input: SendInput, update: boolean) {
  const ws = workspaceOf(input);
  const { db, config, temporal } = input.deps;
  const { workflow_id, record, lead_id } = input.body;
  if ((record === undefined) === (lead_id === undefined)) throw badRequest('record, lead_id: provide exactly one of them');
  const journey = await latestJourney(db, ws, workflow_id, input.deps.journeyVersions);
  const { lead, ignored } = lead_id !== undefined ? { lead: await byId(db, ws, lead_id), ignored: [] } : await byRecord(db, ws, record!, update);
  const { assigned, workflowId } = await startEnrollment(
    { client: temporal.client, taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX, log: input.ctx.state.log },
    ws,
    lead.id,
    journey,
  );
  nameRun(input.ctx, config, workflowId);
  return {
    status: 'success' as const,
    lead_id: lead.id,
    ...(assigned ? { workflow_assigned: true as const, message: ADDED } : { workflow_assigned: false as const, message: ALREADY_IN }),
    ...(ignored.length ? { ignored_fields: ignored } : {}),
  };
}

/** POST /v1/lead/sendtoworkflow: enroll a lead (matched by phone, created when new) in a journey. */
export const sendToWorkflow = defineRoute({
  method: 'post',
  path: '/v1/lead/sendtoworkflow',
  tag: TAG,
  summary: 'Enroll a lead in a journey',
  description:
    'Exactly one of record and lead_id. With record, the lead is matched by record.phone (normalised in the workspace region); ' +
    'when none matches it is created from record, and when one matches every other field of record is ignored and the lead is ' +
    'enrolled with the data on file. A lead already running this journey is not enrolled twice; once its run ended it can be ' +
    'enrolled again (newly enrolled leads run the latest journey version; running ones keep theirs).',
  auth: 'apiKey',
  idempotent: true,
  body: SendBody,
  example: { body: { workflow_id: '8d7c6b5a-4e3f-4a1b-9c8d-7e6f5a4b3c2d', record: { phone: '17145551234', first_name: 'Ann' } } },
  responses: sendResponses,
  namesRun: {},
  handler: (input) => send(input, false),
});

/** PATCH /v1/lead/sendtoworkflow: update-then-enroll. */
export const updateAndSendToWorkflow = defineRoute({
  method: 'patch',
  path: '/v1/lead/sendtoworkflow',
  tag: TAG,
  summary: 'Update a lead (or create it) and enroll it in a journey',
  description:
    'Same body and answers as POST. With record: when no lead has record.phone it is created from record; when one does, the ' +
    'fields supplied in record are updated (phone is the identity and stays), then the lead is enrolled. With lead_id the lead ' +
    'is enrolled as it is on file.',
  auth: 'apiKey',
  idempotent: true,
  body: SendBody,
  example: { body: { workflow_id: '8d7c6b5a-4e3f-4a1b-9c8d-7e6f5a4b3c2d', lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' } },
  responses: sendResponses,
  namesRun: {},
  handler: (input) => send(input, true),
});

/** GET /v1/lead/enrollments: the lead's journey runs, newest first, from the database. */
export const getLeadEnrollments = defineRoute({
  method: 'get',
  path: '/v1/lead/enrollments',
  tag: TAG,
  summary: "List a lead's journey enrollments",
  description: 'Newest first. A run appears as soon as a worker has picked it up (normally within milliseconds of the enrollment).',
  auth: 'apiKey',
  example: { query: { lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' } },
  query: z.object({ lead_id: z.string().min(1).max(100).meta({ format: 'uuid' }).describe('Lead UUID') }),
  responses: {
    200: { description: 'The enrollments', schema: Enrollments },
    404: { description: 'Lead not found' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { db } = input.deps;
    const lead = isUuid(input.query.lead_id) ? await findLeadById(db, ws, input.query.lead_id) : undefined;
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    const rows = await listLeadEnrollments(db, ws, lead.id);
    return { status: 'success', lead_id: lead.id, enrollments: rows.map(presentEnrollment) };
  },
});
