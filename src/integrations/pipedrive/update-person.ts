import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    id: z.number().int().positive().describe('Person id'),
    name: z.string().min(1).max(255).optional(),
    emails: z.array(z.email()).max(10).optional().describe('Replaces the email addresses; the first is primary'),
    phones: z.array(z.string().min(1).max(64)).max(10).optional().describe('Replaces the phone numbers; the first is primary'),
    org_id: z.number().int().positive().optional(),
    owner_id: z.number().int().positive().optional(),
    label_ids: z.array(z.number().int().positive()).optional(),
    custom_fields: z.record(z.string().regex(/^[0-9a-f]{40}$/, 'a 40-character field key'), z.unknown()).optional(),
  })
  .strict()
  .refine(({ id: _id, ...rest }) => Object.values(rest).some((v) => v !== undefined), { message: 'give at least one field to change', path: ['name'] });

const output = z.object({ id: z.number(), name: z.string().nullable() });

const list = (values: string[] | undefined) => values?.map((value, i) => ({ value, primary: i === 0, label: 'work' }));

/** Updates a person's fields (API v2 PATCH; only the fields given change). */
export default defineAction({
  key: 'update_person',
  title: 'Update a person',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.pipedrive.com/docs/api/v1/Persons#updatePerson',
  async run({ id, emails, phones, ...rest }, { http }) {
    const json = { ...rest, emails: list(emails), phones: list(phones) };
    const res = await http.request<{ data: { id: number; name?: string } }>({ method: 'PATCH', path: `/api/v2/persons/${id}`, json });
    return { id: res.body.data.id, name: res.body.data.name ?? null };
  },
});
