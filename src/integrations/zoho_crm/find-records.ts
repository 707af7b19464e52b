import { z } from 'zod';
import { defineAction } from '../define';
import { ZOHO_API } from './api';

const input = z
  .object({
    module: z.enum(['Leads', 'Contacts', 'Accounts', 'Deals']),
    email: z.email().optional(),
    phone: z.string().min(1).max(30).optional(),
    word: z.string().min(2).max(200).optional().describe('Free text over the record fields'),
    fields: z
      .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/))
      .min(1)
      .max(50)
      .default(['Full_Name', 'Email', 'Phone'])
      .describe('Fields to return'),
    per_page: z.number().int().min(1).max(200).default(10),
  })
  .strict()
  .refine((p) => [p.email, p.phone, p.word].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of email, phone and word',
    path: ['email'],
  });

const output = z.object({ records: z.array(z.record(z.string(), z.unknown())), more: z.boolean() });

/** Finds records of a module by email, phone or a word (search API); Zoho answers 204 when nothing matches. */
export default defineAction({
  key: 'find_records',
  title: 'Find records',
  input,
  output,
  idempotent: true,
  docs: 'https://www.zoho.com/crm/developer/docs/api/v8/search-records.html',
  async run(p, { http }) {
    const query = { email: p.email, phone: p.phone, word: p.word, fields: p.fields.join(','), per_page: p.per_page };
    const res = await http.request<{ data?: Array<Record<string, unknown>>; info?: { more_records?: boolean } } | string>({
      method: 'GET',
      path: `${ZOHO_API}/${p.module}/search`,
      query,
    });
    const body = typeof res.body === 'object' && res.body ? res.body : {};
    return { records: body.data ?? [], more: body.info?.more_records ?? false };
  },
});
