import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    name: z.string().min(1).max(255).describe('Full name'),
    emails: z.array(z.email()).max(10).optional().describe('Email addresses; the first is primary'),
    phones: z.array(z.string().min(1).max(64)).max(10).optional().describe('Phone numbers; the first is primary'),
    org_id: z.number().int().positive().optional().describe('Organization id'),
    owner_id: z.number().int().positive().optional().describe('Owning user id'),
    label_ids: z.array(z.number().int().positive()).optional(),
    custom_fields: z
      .record(z.string().regex(/^[0-9a-f]{40}$/, 'a 40-character field key'), z.unknown())
      .optional()
      .describe('Custom field values by field key (the 40-character hash)'),
  })
  .strict();

const output = z.object({ id: z.number() });

const list = (values: string[] | undefined) => values?.map((value, i) => ({ value, primary: i === 0, label: 'work' }));

/** Creates a person (API v2: emails/phones as arrays, custom fields under `custom_fields`). */
export default defineAction({
  key: 'create_person',
  title: 'Create a person',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.pipedrive.com/docs/api/v1/Persons#addPerson',
  async run(p, { http }) {
    const json = {
      name: p.name,
      emails: list(p.emails),
      phones: list(p.phones),
      org_id: p.org_id,
      owner_id: p.owner_id,
      label_ids: p.label_ids,
      custom_fields: p.custom_fields,
    };
    const res = await http.request<{ data: { id: number } }>({ method: 'POST', path: '/api/v2/persons', json });
    return { id: res.body.data.id };
  },
});
