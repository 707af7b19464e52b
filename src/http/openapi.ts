import { z } from 'zod';
import type { Route } from './route';

const failure = z.object({ status: z.literal('failed'), message: z.string() });

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

/** The OpenAPI 3.1 document, generated from the routes' own zod schemas. */
export function buildOpenApi(routes: Route<any, any>[], urls: Record<'base_url' | 'integrations_url' | 'hooks_url' | 'wss_url', string>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const m of route.path.matchAll(/:([A-Za-z_]+)/g)) {
      parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    if (route.query) {
      const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        parameters.push({
          name,
          in: 'query',
          required: schema.required?.includes(name) ?? false,
          schema: prop,
          description: (prop as { description?: string }).description,
        });
      }
    }
    if (route.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
        description:
          'A retry with the same key and request (within 24 h) replays the first response with header Idempotent-Replayed: true; ' +
          'the same key with another request, or while the first is still running, is a 409.',
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses)) {
      const schema = r.schema ?? (Number(status) >= 400 ? failure : undefined);
      responses[status] = {
        description: r.description,
        ...(schema ? { content: { 'application/json': { schema: jsonSchema(schema, 'output') } } } : {}),
      };
    }
    if (route.auth === 'apiKey' && !responses['401']) {
      responses['401'] = { description: 'Missing, invalid or revoked API key', content: { 'application/json': { schema: jsonSchema(failure, 'output') } } };
    }
    responses['429'] ??= {
      description: 'Too many requests from this API key or client address; retry after Retry-After seconds',
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
      content: { 'application/json': { schema: jsonSchema(failure, 'output') } },
    };
    (paths[path] ??= {})[route.method] = {
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security: route.auth === 'apiKey' ? [{ apiKey: [] }] : [],
      parameters: parameters.length ? parameters : undefined,
      requestBody: route.body
        ? { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } }
        : undefined,
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1.7.0',
      description:
        'Leads, journeys, outbound AI calls, automations and web chat. REST paths live under {base_url} (which ends in /v1); ' +
        'the automation endpoint under {integrations_url}, chat session initialisation under {hooks_url} and the chat WebSocket under {wss_url}.',
    },
    // One origin serves all four hosts of the spec here; x-hosts names each host's address.
    servers: [{ url: urls.integrations_url }],
    'x-hosts': urls,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'REST: Authorization: Bearer <API key> (workspace settings → API keys)' },
        userJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Automation endpoint: a user JWT from login' },
        superuserKey: { type: 'apiKey', in: 'header', name: 'x-key', description: 'Automation endpoint: superuser key' },
      },
      schemas: { Failure: jsonSchema(failure, 'output') },
    },
    paths,
  };
}
