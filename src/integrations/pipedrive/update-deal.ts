import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    id: z.number().int().positive().describe('Deal id'),
    title: z.string().min(1).max(255).optional(),
    value: z.number().min(0).optional(),
    currency: z.string().length(3).optional(),
    stage_id: z.number().int().positive().optional().describe('Move the deal to this stage'),
    status: z.enum(['open', 'won', 'lost']).optional(),
    lost_reason: z.string().max(255).optional(),
    expected_close_date: z.iso.date().optional(),
    custom_fields: z.record(z.string().regex(/^[0-9a-f]{40}$/, 'a 40-character field key'), z.unknown()).optional(),
  })
  .strict()
  .refine(({ id: _id, ...rest }) => Object.values(rest).some((v) => v !== undefined), { message: 'give at least one field to change', path: ['title'] });

const output = z.object({ id: z.number(), stage_id: z.number().nullable(), status: z.string().nullable() });

/** Updates a deal: its stage, status, value or fields (API v2 PATCH). */
export default defineAction({
  key: 'update_deal',
  title: 'Update a deal',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.pipedrive.com/docs/api/v1/Deals#updateDeal',
  async run({ id, ...json }, { http }) {
    const res = await http.request<{ data: { id: number; stage_id?: number; status?: string } }>({ method: 'PATCH', path: `/api/v2/deals/${id}`, json });
    return { id: res.body.data.id, stage_id: res.body.data.stage_id ?? null, status: res.body.data.status ?? null };
  },
});
