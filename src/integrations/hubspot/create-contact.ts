import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z
  .object({
    email: z.email().optional(),
    firstname: z.string().max(255).optional(),
    lastname: z.string().max(255).optional(),
    phone: z.string().max(64).optional(),
    company: z.string().max(255).optional(),
    website: z.string().max(2048).optional(),
    lifecyclestage: z.string().max(64).optional(),
    /** Any other contact property by its internal name. */
    properties: z.record(z.string().regex(/^[a-z0-9_]+$/), z.string()).optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).some((k) => k !== 'properties') || Object.keys(p.properties ?? {}).length > 0, {
    message: 'give at least one contact property',
  });

const output = z.object({ id: z.string(), existing: z.boolean(), properties: z.record(z.string(), z.unknown()) });

/**
 * Creates a contact; when one already has the email, the supplied properties are written to it and it is returned as
 * `existing` (so a replay creates nothing twice and a known caller's new details are kept).
 */
export default defineAction({
  key: 'create_contact',
  title: 'Create a contact',
  input,
  output,
  idempotent: false,
  // HubSpot keeps one contact per email (409 naming it); without one, each request creates another contact.
  idempotentFor: { inputs: 'with email', test: (p) => p.email !== undefined },
  docs: 'https://developers.hubspot.com/docs/api/crm/contacts',
  async run(p, { http }) {
    const { properties: extra, ...named } = p;
    const properties: Record<string, string> = { ...extra };
    for (const [k, v] of Object.entries(named)) if (typeof v === 'string') properties[k] = v;
    try {
      // HubSpot's description requires associations; an empty list associates nothing.
      const res = await http.request<{ id: string; properties: Record<string, unknown> }>({
        method: 'POST',
        path: '/crm/v3/objects/contacts',
        json: { properties, associations: [] },
      });
      return { id: res.body.id, existing: false, properties: res.body.properties ?? {} };
    } catch (err) {
      // HubSpot answers 409 "Contact already exists. Existing ID: 123" when the email is taken.
      const existing = err instanceof VendorError && err.status === 409 ? /Existing ID: (\d+)/.exec(err.message)?.[1] : undefined;
      if (!existing) throw err;
      const res = await http.request<{ id: string; properties?: Record<string, unknown> }>({
        method: 'PATCH',
        path: `/crm/v3/objects/contacts/${existing}`,
        json: { properties },
      });
      return { id: existing, existing: true, properties: res.body.properties ?? {} };
    }
  },
});
