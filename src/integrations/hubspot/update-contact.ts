import { z } from 'zod';
import { defineAction } from '../define';
import { contactProperties, recordId, type HubspotObject } from './properties';

const input = z
  .object({
    email: z.email().optional().describe('Finds the contact by email (idProperty=email)'),
    id: recordId.optional().describe('Or the contact id'),
    properties: contactProperties.describe('Properties to write, by internal name'),
  })
  .strict()
  .refine((p) => (p.email === undefined) !== (p.id === undefined), { message: 'give exactly one of email and id', path: ['email'] })
  .refine((p) => Object.keys(p.properties).length > 0, { message: 'give at least one property', path: ['properties'] });

const output = z.object({ id: z.string(), properties: z.record(z.string(), z.unknown()) });

/** Updates an existing contact found by email or id; a contact that does not exist fails vendor_not_found. */
export default defineAction({
  key: 'update_contact',
  title: 'Update a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.hubspot.com/docs/api/crm/contacts',
  async run(p, { http }) {
    const path = `/crm/v3/objects/contacts/${encodeURIComponent(p.email ?? p.id!)}`;
    const res = await http.request<HubspotObject>({ method: 'PATCH', path, query: p.email ? { idProperty: 'email' } : {}, json: { properties: p.properties } });
    return { id: res.body.id, properties: res.body.properties ?? {} };
  },
});
