import { z } from 'zod';
import { defineAction } from '../define';
import { association, DEAL_TO_COMPANY, DEAL_TO_CONTACT, recordId, type HubspotObject } from './properties';

const input = z
  .object({
    dealname: z.string().min(1).max(255),
    pipeline: z.string().min(1).max(100).default('default').describe('Pipeline id'),
    dealstage: z.string().min(1).max(100).describe('Stage id within the pipeline (e.g. appointmentscheduled)'),
    amount: z.number().min(0).optional(),
    closedate: z.iso.datetime({ offset: true }).optional(),
    contact_id: recordId.optional().describe('The contact the deal is with'),
    company_id: recordId.optional(),
    properties: z
      .record(z.string().regex(/^[a-z0-9_]+$/), z.string())
      .optional()
      .describe('More deal properties by internal name'),
  })
  .strict();

const output = z.object({ id: z.string(), properties: z.record(z.string(), z.unknown()) });

/** Creates a deal in a pipeline stage, associated with a contact and/or company. */
export default defineAction({
  key: 'create_deal',
  title: 'Create a deal',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.hubspot.com/docs/api/crm/deals',
  async run(p, { http }) {
    const properties: Record<string, string> = { ...p.properties, dealname: p.dealname, pipeline: p.pipeline, dealstage: p.dealstage };
    if (p.amount !== undefined) properties.amount = String(p.amount);
    if (p.closedate) properties.closedate = new Date(p.closedate).toISOString();
    const associations = [
      ...(p.contact_id ? [association(p.contact_id, DEAL_TO_CONTACT)] : []),
      ...(p.company_id ? [association(p.company_id, DEAL_TO_COMPANY)] : []),
    ];
    const res = await http.request<HubspotObject>({ method: 'POST', path: '/crm/v3/objects/deals', json: { properties, associations } });
    return { id: res.body.id, properties: res.body.properties ?? {} };
  },
});
