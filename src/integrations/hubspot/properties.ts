import { z } from 'zod';

/** HubSpot's answer for one CRM object (SimplePublicObject). */
export interface HubspotObject {
  id: string;
  properties?: Record<string, unknown>;
}

/** Contact properties by internal name (`firstname`, `hs_lead_status`, custom ones). */
export const contactProperties = z.record(z.string().regex(/^[a-z0-9_]+$/, 'a property internal name'), z.string());

/** The CRM object types the actions associate and attach to (v4 object type names). */
export const objectType = z.enum(['contacts', 'companies', 'deals', 'tickets']);

/** HubSpot-defined association type ids of a note or deal to each record type. */
export const NOTE_TO: Record<z.infer<typeof objectType>, number> = { contacts: 202, companies: 190, deals: 214, tickets: 228 };
export const DEAL_TO_CONTACT = 3;
export const DEAL_TO_COMPANY = 5;

/** A record id as HubSpot issues them (numeric). */
export const recordId = z.string().regex(/^\d+$/, 'a HubSpot record id');

/** One association in a create request. */
export const association = (id: string, typeId: number) => ({ to: { id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: typeId }] });
