import { z } from 'zod';
import { defineAction } from '../define';
import { ghlId, locationId } from './location';

const input = z
  .object({
    locationId: ghlId.optional().describe('Sub-account id; defaults to the connection setting location_id'),
    firstName: z.string().max(255).optional(),
    lastName: z.string().max(255).optional(),
    name: z.string().max(255).optional(),
    email: z.email().optional(),
    phone: z.string().max(40).optional().describe('E.164 phone number'),
    companyName: z.string().max(255).optional(),
    source: z.string().max(255).optional(),
    timezone: z.string().max(64).optional().describe('IANA time zone, e.g. America/Chicago'),
    dnd: z.boolean().optional(),
    tags: z.array(z.string().min(1).max(255)).max(100).optional().describe('Replaces the contact tags (use add_tags to add)'),
    custom_field_values: z
      .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
      .optional()
      .describe('Custom field values by custom field id'),
  })
  .strict()
  .refine((p) => p.email !== undefined || p.phone !== undefined, { message: 'give email or phone', path: ['email'] });

const output = z.object({ id: z.string(), created: z.boolean() });

/** Creates or updates a contact, matched by the sub-account's duplicate rule (email and/or phone). */
export default defineAction({
  key: 'upsert_contact',
  title: 'Create or update a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://marketplace.gohighlevel.com/docs/ghl/contacts/upsert-contact',
  async run({ custom_field_values: values, ...p }, { http, connection }) {
    const customFields = values ? Object.entries(values).map(([id, field_value]) => ({ id, field_value })) : undefined;
    const json = { ...p, locationId: locationId(p.locationId, connection), customFields };
    const res = await http.request<{ new: boolean; contact: { id: string } }>({ method: 'POST', path: '/contacts/upsert', json });
    return { id: res.body.contact.id, created: res.body.new === true };
  },
});
