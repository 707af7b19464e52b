import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    term: z.string().min(2).max(200).describe('Email, phone or name to look for (at least 2 characters)'),
    fields: z
      .array(z.enum(['name', 'email', 'phone', 'notes', 'custom_fields']))
      .min(1)
      .default(['email', 'phone', 'name']),
    exact_match: z.boolean().default(false),
    limit: z.number().int().min(1).max(100).default(10),
  })
  .strict();

const person = z.object({ id: z.number(), name: z.string().nullable(), emails: z.array(z.string()), phones: z.array(z.string()) });
const output = z.object({ persons: z.array(person) });

interface Item {
  item: { id: number; name?: string; emails?: string[]; phones?: string[] };
}

/** Finds persons by email, phone or name (API v2 persons/search); none found is an empty list. */
export default defineAction({
  key: 'find_person',
  title: 'Find a person',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.pipedrive.com/docs/api/v1/Persons#searchPersons',
  async run(p, { http }) {
    const query = { term: p.term, fields: p.fields.join(','), exact_match: p.exact_match, limit: p.limit };
    const res = await http.request<{ data: { items?: Item[] } | null }>({ method: 'GET', path: '/api/v2/persons/search', query });
    const persons = (res.body.data?.items ?? []).map(({ item }) => ({
      id: item.id,
      name: item.name ?? null,
      emails: item.emails ?? [],
      phones: item.phones ?? [],
    }));
    return { persons };
  },
});
