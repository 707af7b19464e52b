import { z } from 'zod';
import { defineAction } from '../define';
import type { HubspotObject } from './properties';

const input = z
  .object({
    email: z.email().optional().describe('Contacts with exactly this email'),
    phone: z.string().min(1).max(64).optional().describe('Contacts with exactly this phone'),
    query: z.string().min(1).max(200).optional().describe('Free text over the default searchable properties'),
    properties: z
      .array(z.string().regex(/^[a-z0-9_]+$/))
      .max(50)
      .default(['email', 'firstname', 'lastname', 'phone'])
      .describe('Properties to return'),
    limit: z.number().int().min(1).max(100).default(10),
  })
  .strict()
  .refine((p) => p.email ?? p.phone ?? p.query, { message: 'give email, phone or query', path: ['email'] });

const output = z.object({ total: z.number(), contacts: z.array(z.object({ id: z.string(), properties: z.record(z.string(), z.unknown()) })) });

/** Finds contacts by email, phone or free text (CRM search); none found is an empty list. */
export default defineAction({
  key: 'search_contacts',
  title: 'Search contacts',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.hubspot.com/docs/api/crm/search',
  async run(p, { http }) {
    const filters = [
      ...(p.email ? [{ propertyName: 'email', operator: 'EQ', value: p.email }] : []),
      ...(p.phone ? [{ propertyName: 'phone', operator: 'EQ', value: p.phone }] : []),
    ];
    const json = {
      ...(filters.length ? { filterGroups: [{ filters }] } : {}),
      ...(p.query ? { query: p.query } : {}),
      properties: p.properties,
      limit: p.limit,
    };
    const res = await http.request<{ total: number; results: HubspotObject[] }>({ method: 'POST', path: '/crm/v3/objects/contacts/search', json });
    return { total: res.body.total, contacts: res.body.results.map((c) => ({ id: c.id, properties: c.properties ?? {} })) };
  },
});
