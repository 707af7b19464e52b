import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    title: z.string().min(1).max(255).describe('Lead title'),
    person_id: z.number().int().positive().optional().describe('The person the lead is about (this or organization_id)'),
    organization_id: z.number().int().positive().optional(),
    owner_id: z.number().int().positive().optional(),
    label_ids: z.array(z.uuid()).optional().describe('Lead label ids (UUIDs)'),
    value: z
      .object({ amount: z.number().min(0), currency: z.string().length(3) })
      .strict()
      .optional(),
    expected_close_date: z.iso.date().optional(),
  })
  .strict()
  .refine((p) => p.person_id !== undefined || p.organization_id !== undefined, { message: 'give person_id or organization_id', path: ['person_id'] });

const output = z.object({ id: z.string() });

/** Creates a lead in the Leads Inbox, linked to a person or an organization. */
export default defineAction({
  key: 'create_lead',
  title: 'Create a lead',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.pipedrive.com/docs/api/v1/Leads#addLead',
  async run(p, { http }) {
    const res = await http.request<{ data: { id: string } }>({ method: 'POST', path: '/api/v1/leads', json: p });
    return { id: res.body.data.id };
  },
});
