import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { objectBody, SANDBOX_PREFIXES, SANDBOX_TOKEN, type SandboxVendor, type VendorAnswer, type VendorCall } from './vendor';

// SimplePublicObjectInputForCreate (hubspot.json): properties and associations are both required.
const createInput = z
  .object({
    properties: z.record(z.string(), z.string()),
    associations: z.array(z.object({ to: z.object({ id: z.string() }).loose(), types: z.array(z.unknown()) }).loose()),
  })
  .strict();
const updateInput = z.object({ properties: z.record(z.string(), z.string()) }).strict();
const searchInput = z
  .object({
    filterGroups: z.array(z.object({ filters: z.array(z.object({ propertyName: z.string(), operator: z.string(), value: z.string() }).loose()) })).optional(),
    properties: z.array(z.string()).optional(),
    limit: z.number().int().optional(),
  })
  .loose();

/** HubSpot's error body (the Error schema). */
const error = (status: number, category: string, message: string): VendorAnswer => ({
  status,
  body: { status: 'error', message, correlationId: randomUUID(), category },
});

const invalid = (issues: z.core.$ZodIssue[]) =>
  error(400, 'VALIDATION_ERROR', `Invalid input JSON: ${issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);

const CONTACT = /^\/crm\/v3\/objects\/contacts\/([^/]+)$/;

/**
 * HubSpot CRM v3 contacts: create (a taken email is a 409 naming the existing id), update by id or by email
 * (`idProperty=email`), and search by exact property values.
 */
export function hubspotSandbox(): SandboxVendor {
  const contacts = new Map<string, Record<string, string>>();
  const byEmail = new Map<string, string>();
  let nextId = 100_001;
  const answer = (id: string) => {
    const { createdate, lastmodifieddate, ...rest } = contacts.get(id)!;
    return { id, properties: { ...rest, createdate, lastmodifieddate }, createdAt: createdate, updatedAt: lastmodifieddate, archived: false };
  };

  function create(call: VendorCall): VendorAnswer {
    const parsed = createInput.safeParse(objectBody(call.body) ?? call.body);
    if (!parsed.success) return invalid(parsed.error.issues);
    const email = parsed.data.properties.email?.toLowerCase();
    const taken = email ? byEmail.get(email) : undefined;
    if (taken) return error(409, 'CONFLICT', `Contact already exists. Existing ID: ${taken}`);
    const id = String(nextId++);
    if (email) byEmail.set(email, id);
    const now = new Date().toISOString();
    contacts.set(id, { ...parsed.data.properties, hs_object_id: id, createdate: now, lastmodifieddate: now });
    return { status: 201, body: answer(id) };
  }

  function update(call: VendorCall, key: string): VendorAnswer {
    const id = call.query.idProperty === 'email' ? byEmail.get(key.toLowerCase()) : key;
    if (!id || !contacts.has(id)) return error(404, 'OBJECT_NOT_FOUND', 'Object not found.  objectId are usually numeric.');
    const parsed = updateInput.safeParse(objectBody(call.body) ?? call.body);
    if (!parsed.success) return invalid(parsed.error.issues);
    const email = parsed.data.properties.email?.toLowerCase();
    if (email && byEmail.has(email) && byEmail.get(email) !== id) return error(409, 'CONFLICT', `Contact already exists. Existing ID: ${byEmail.get(email)}`);
    if (email) byEmail.set(email, id);
    contacts.set(id, { ...contacts.get(id)!, ...parsed.data.properties, lastmodifieddate: new Date().toISOString() });
    return { status: 200, body: answer(id) };
  }

  function search(call: VendorCall): VendorAnswer {
    const parsed = searchInput.safeParse(objectBody(call.body) ?? call.body);
    if (!parsed.success) return invalid(parsed.error.issues);
    const filters = parsed.data.filterGroups?.flatMap((g) => g.filters) ?? [];
    const matches = [...contacts.keys()].filter((id) =>
      filters.every((f) => f.operator === 'EQ' && (contacts.get(id)![f.propertyName] ?? '').toLowerCase() === f.value.toLowerCase()),
    );
    return { status: 200, body: { total: matches.length, results: matches.slice(0, parsed.data.limit ?? 10).map(answer) } };
  }

  return {
    integration: 'hubspot',
    prefix: SANDBOX_PREFIXES.hubspot,
    handle(call) {
      const one = call.method === 'PATCH' ? CONTACT.exec(call.path) : null;
      const route =
        call.method === 'POST' && call.path === '/crm/v3/objects/contacts'
          ? 'create'
          : call.method === 'POST' && call.path === '/crm/v3/objects/contacts/search'
            ? 'search'
            : one
              ? 'update'
              : undefined;
      if (!route) return error(404, 'OBJECT_NOT_FOUND', `No route for ${call.method} ${call.path}`);
      if (!call.token) return error(401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found.');
      if (call.token !== SANDBOX_TOKEN) return error(401, 'INVALID_AUTHENTICATION', 'Authentication credentials are invalid.');
      if (route === 'create') return create(call);
      if (route === 'search') return search(call);
      return update(call, decodeURIComponent(one![1]!));
    },
  };
}
