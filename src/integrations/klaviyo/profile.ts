import { z } from 'zod';

/** JSON:API bodies go out with their own media type. */
export const JSON_API = { 'content-type': 'application/vnd.api+json' };

/** A profile's attributes as Klaviyo names them. */
export const profileAttributes = {
  email: z.email().optional(),
  phone_number: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'an E.164 number')
    .optional()
    .describe('E.164 phone number'),
  external_id: z.string().max(255).optional().describe('Your id for the person'),
  first_name: z.string().max(255).optional(),
  last_name: z.string().max(255).optional(),
  organization: z.string().max(255).optional(),
  title: z.string().max(255).optional(),
  locale: z.string().max(35).optional().describe('IETF BCP 47 tag, e.g. en-US'),
  location: z
    .object({ address1: z.string(), address2: z.string(), city: z.string(), country: z.string(), region: z.string(), zip: z.string(), timezone: z.string() })
    .partial()
    .strict()
    .optional(),
  properties: z.record(z.string().min(1), z.unknown()).optional().describe('Custom properties by name'),
};

/** At least one identifier: Klaviyo refuses a profile without email, phone or external id. */
export function hasIdentifier(p: { email?: string; phone_number?: string; external_id?: string }): boolean {
  return p.email !== undefined || p.phone_number !== undefined || p.external_id !== undefined;
}
