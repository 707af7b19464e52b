import { addTag, removeTag } from '../db/leads';
import { notFound } from '../../http/api-error';
import { defineRoute, workspaceOf } from '../../http/route';
import { TagBody, TagResult } from './lead-schemas';
import { LEAD_NOT_FOUND, leadOr404 } from './leads';

const TAG = 'Leads';

/** PATCH /v1/lead/tag: adds a tag (already there is success); the tag dnc also puts the phone on the do-not-call list. */
export const addLeadTag = defineRoute({
  method: 'patch',
  path: '/v1/lead/tag',
  tag: TAG,
  summary: 'Add a tag to a lead',
  description: "Adding a tag the lead already has succeeds without a duplicate. The tag dnc (any case) also adds the lead's phone to the do-not-call list.",
  auth: 'apiKey',
  idempotent: true,
  body: TagBody,
  example: { body: { lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47', tag: 'High_Priority' } },
  responses: {
    200: { description: 'The lead has the tag', schema: TagResult },
    400: { description: 'Missing lead_id or tag, or a tag with characters other than letters, digits and underscores' },
    404: { description: 'Lead not found' },
  },
  async handler(input) {
    const { lead_id, tag } = input.body;
    const ws = workspaceOf(input);
    const had = (await leadOr404(input.deps.db, ws, lead_id)).tags.includes(tag);
    if (!(await addTag(input.deps.db, ws, lead_id, tag))) throw notFound(LEAD_NOT_FOUND);
    return { status: 'success', lead_id, tag, message: had ? 'Lead already has this tag' : 'Tag added to lead' };
  },
});

/** DELETE /v1/lead/tag?lead_id=…&tag=…: removes a tag (absent is success). */
export const removeLeadTag = defineRoute({
  method: 'delete',
  path: '/v1/lead/tag',
  tag: TAG,
  summary: 'Remove a tag from a lead',
  description: 'Removing a tag the lead does not have succeeds. Removing dnc leaves the do-not-call list unchanged.',
  auth: 'apiKey',
  query: TagBody,
  example: { query: { lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47', tag: 'High_Priority' } },
  responses: {
    200: { description: 'The lead does not have the tag', schema: TagResult },
    400: { description: 'Missing or invalid lead_id or tag' },
    404: { description: 'Lead not found' },
  },
  async handler(input) {
    const { lead_id, tag } = input.query;
    const ws = workspaceOf(input);
    const lead = await removeTag(input.deps.db, ws, lead_id, tag);
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    return { status: 'success', lead_id, tag, message: 'Tag removed from lead' };
  },
});
