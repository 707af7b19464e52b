import type { Queryable } from '../../db/pool';
import { isUniqueViolation } from '../../db/pool';
import { findLeadById, findLeadByPhone, findOrCreateLead, presentLead, updateLead, type LeadRow } from '../db/leads';
import { badRequest, conflict, notFound } from '../../http/api-error';
import { INVALID_PHONE, normalizeRecordPhone, splitRecordFor } from '../record';
import { workspaceRegion } from '../region';
import { phoneCandidate } from '../../core/phone';
import { defineRoute, workspaceOf } from '../../http/route';
import { CreateLeadBody, GetLeadQuery, Lead, LeadSaved, UpdateLeadBody } from './lead-schemas';

const TAG = 'Leads';
export const LEAD_NOT_FOUND = 'Lead not found';

/** The lead, or a 404 `Lead not found` (also for another workspace's lead). */
export async function leadOr404(db: Queryable, workspaceId: string, id: string): Promise<LeadRow> {
  const lead = await findLeadById(db, workspaceId, id);
  if (!lead) throw notFound(LEAD_NOT_FOUND);
  return lead;
}

async function phoneOf(db: Queryable, workspaceId: string, phone: string): Promise<string> {
  const normalized = normalizeRecordPhone(phone, await workspaceRegion(db, workspaceId));
  if (!normalized) throw badRequest(`phone: ${INVALID_PHONE}`);
  return normalized;
}

/**
 * The lead with this phone, or undefined. A phone already in canonical form is looked up first and validated only
 * when nothing matches (every stored phone was valid when stored); this keeps phone parsing off the hot path.
 */
async function leadByPhone(db: Queryable, workspaceId: string, phone: string): Promise<LeadRow | undefined> {
  const region = await workspaceRegion(db, workspaceId);
  const candidate = phoneCandidate(phone, region);
  if (candidate) {
    const lead = await findLeadByPhone(db, workspaceId, candidate);
    if (lead) return lead;
  }
  const normalized = normalizeRecordPhone(phone, region);
  if (!normalized) throw badRequest(`phone: ${INVALID_PHONE}`);
  return normalized === candidate ? undefined : findLeadByPhone(db, workspaceId, normalized);
}

const saved = (message: string, lead: LeadRow, ignored: string[]) => ({
  status: 'success' as const,
  message,
  lead_id: lead.id,
  lead: presentLead(lead),
  ...(ignored.length ? { ignored_fields: ignored } : {}),
});

/** GET /v1/lead/get: a lead by phone (any format, normalised) or by lead_id. */
export const getLead = defineRoute({
  method: 'get',
  path: '/v1/lead/get',
  tag: TAG,
  summary: 'Get a lead by phone or lead_id',
  description: 'Provide exactly one of phone and lead_id. Lookup by phone normalises the number first, so any common format finds the lead.',
  auth: 'apiKey',
  query: GetLeadQuery,
  example: { query: { phone: '17145551234' } },
  responses: {
    200: { description: 'The lead', schema: Lead },
    400: { description: 'Both or neither parameter, an invalid phone or a malformed lead_id' },
    404: { description: 'Lead not found' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { db } = input.deps;
    const { phone, lead_id } = input.query;
    const lead = lead_id ? await findLeadById(db, ws, lead_id) : await leadByPhone(db, ws, phone!);
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    return presentLead(lead);
  },
});

/** POST /v1/lead/create: a new lead; 409 when its phone is already on file. */
export const createLead = defineRoute({
  method: 'post',
  path: '/v1/lead/create',
  tag: TAG,
  summary: 'Create a lead',
  description:
    'Answers 200 (as every success of the live platform does) with the new lead. A phone without country code is read in the ' +
    "workspace's default region (for US workspaces, a missing leading 1 is added). Fields beyond the standard ones are kept " +
    'when the workspace defines them as custom fields and listed in ignored_fields otherwise.',
  auth: 'apiKey',
  idempotent: true,
  body: CreateLeadBody,
  example: { body: { phone: '17145551234', first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com', company: 'Acme', timezone: 'America/Los_Angeles' } },
  links: {
    GetEnrollments: { operationId: 'getV1LeadEnrollments', parameters: { lead_id: '$response.body#/lead_id' }, description: "The new lead's enrollments" },
    AddTag: { operationId: 'patchV1LeadTag', requestBody: { lead_id: '$response.body#/lead_id', tag: 'High_Priority' }, description: 'Tag the new lead' },
    RemoveTag: { operationId: 'deleteV1LeadTag', parameters: { lead_id: '$response.body#/lead_id', tag: 'High_Priority' }, description: 'Untag the new lead' },
    Update: { operationId: 'patchV1LeadUpdate', requestBody: { lead_id: '$response.body#/lead_id', company: 'Initech' }, description: 'Update the new lead' },
  },
  responses: {
    200: { description: 'Lead created', schema: LeadSaved },
    400: { description: 'Missing or invalid field' },
    409: { description: 'A lead with this phone already exists (its lead_id is in the message)' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { db } = input.deps;
    const phone = await phoneOf(db, ws, input.body.phone);
    const { standard, custom, ignored } = await splitRecordFor(db, ws, input.body);
    const { lead, created } = await findOrCreateLead(db, ws, phone, standard, custom, { insertFirst: true });
    if (!created) throw conflict(`Lead already exists: lead_id ${lead.id}`);
    return saved('Lead created', lead, ignored);
  },
});

/** PATCH /v1/lead/update: changes the supplied fields only. */
export const updateLeadRoute = defineRoute({
  method: 'patch',
  path: '/v1/lead/update',
  tag: TAG,
  summary: 'Update a lead',
  description: 'Changes only the fields supplied. A new phone is normalised; a phone held by another lead is a 409.',
  auth: 'apiKey',
  idempotent: true,
  body: UpdateLeadBody,
  example: { body: { lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47', company: 'Initech', plan: 'gold' } },
  responses: {
    200: { description: 'Lead updated', schema: LeadSaved },
    400: { description: 'Missing or invalid field' },
    404: { description: 'Lead not found' },
    409: { description: 'Another lead has this phone (its lead_id is in the message)' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { db } = input.deps;
    const { lead_id, ...record } = input.body;
    const { standard, custom, ignored } = await splitRecordFor(db, ws, record);
    if (standard.phone !== undefined) standard.phone = await phoneOf(db, ws, standard.phone);
    let lead: LeadRow | undefined;
    try {
      lead = await updateLead(db, ws, lead_id, standard, custom);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const holder = await findLeadByPhone(db, ws, standard.phone!);
      throw conflict(`Lead already exists with this phone: lead_id ${holder?.id ?? 'unknown'}`);
    }
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    return saved('Lead updated', lead, ignored);
  },
});
