import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { objectBody, SANDBOX_PREFIXES, SANDBOX_TOKEN, type SandboxVendor, type VendorAnswer } from './vendor';

// SimplePublicObjectInputForCreate (hubspot.json): properties and associations are both required.
const createInput = z
  .object({
    properties: z.record(z.string(), z.string()),
    associations: z.array(z.object({ to: z.object({ id: z.string() }).loose(), types: z.array(z.unknown()) }).loose()),
  })
  .strict();

/** HubSpot's error body (the Error schema). */
const error = (status: number, category: string, message: string): VendorAnswer => ({
  status,
  body: { status: 'error', message, correlationId: randomUUID(), category },
});

/** HubSpot CRM v3: create a contact; a second contact with a taken email is a 409 naming the existing id. */
export function hubspotSandbox(): SandboxVendor {
  const byEmail = new Map<string, string>();
  let nextId = 100_001;
  return {
    integration: 'hubspot',
    prefix: SANDBOX_PREFIXES.hubspot,
    handle(call) {
      if (call.method !== 'POST' || call.path !== '/crm/v3/objects/contacts') return error(404, 'OBJECT_NOT_FOUND', `No route for ${call.method} ${call.path}`);
      if (!call.token) return error(401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found.');
      if (call.token !== SANDBOX_TOKEN) return error(401, 'INVALID_AUTHENTICATION', 'Authentication credentials are invalid.');
      const parsed = createInput.safeParse(objectBody(call.body) ?? call.body);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
        return error(400, 'VALIDATION_ERROR', `Invalid input JSON: ${problems.join('; ')}`);
      }
      const email = parsed.data.properties.email?.toLowerCase();
      const taken = email ? byEmail.get(email) : undefined;
      if (taken) return error(409, 'CONFLICT', `Contact already exists. Existing ID: ${taken}`);
      const id = String(nextId++);
      if (email) byEmail.set(email, id);
      const now = new Date().toISOString();
      const properties = { ...parsed.data.properties, hs_object_id: id, createdate: now, lastmodifieddate: now };
      return { status: 201, body: { id, properties, createdAt: now, updatedAt: now, archived: false } };
    },
  };
}
