import { z } from 'zod';
import { applyDocumented, IDEMPOTENCY_KEY_PATTERN } from '../core/documented';
import type { Route } from './route';

const failure = z.object({ status: z.literal('failed'), message: z.string() });

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: applyDocumented }) as Record<
    string,
    unknown
  >;
  return json;
};

const FAILURE_REF = { $ref: '#/components/schemas/Failure' };
const retryAfter = (description: string) => ({ 'Retry-After': { description, schema: { type: 'integer', minimum: 0 } } });

/** The headers of an answer that names its run (src/http/run-link.ts). */
const runHeaders = (when: string | undefined) => ({
  'Switchboard-Workflow-Id': {
    description: `The id of the durable run (Temporal workflow) the request started or signalled${when ? `; only ${when}` : ''}`,
    required: !when,
    schema: { type: 'string', minLength: 1 },
  },
  Link: {
    description: 'The run in the Temporal UI: `<{TEMPORAL_UI_URL}/namespaces/{namespace}/workflows/{workflow id}>; rel="workflow"` (both URL-encoded)',
    required: !when,
    schema: { type: 'string', pattern: '^<https?://[^>]+/namespaces/[^/>]+/workflows/[^/>]+>; rel="workflow"$' },
  },
});

type Documented = { description: string; schema?: z.ZodType; headers?: Record<string, unknown>; contentType?: string };

/** The automation routes' one rule about their two credentials, stated on each operation and each scheme (ST202). */
const BOTH_HEADERS = 'Both Authorization and x-key sent: send exactly one of them (400)';

const challenge = { 'WWW-Authenticate': { description: 'Bearer (RFC 9110)', schema: { type: 'string', const: 'Bearer' } } };

/** The statuses every route of a kind can answer, besides the ones it lists itself. */
function standardFailures(route: Route<any, any>): Record<string, Documented> {
  const out: Record<string, Documented> = {};
  if (route.query || route.body || route.rawBody || route.idempotent) out[400] = { description: 'Invalid request: the message names the fields at fault' };
  if (route.auth === 'apiKey') {
    out[401] = { description: 'Missing, invalid or revoked API key', headers: challenge };
    out[403] = { description: 'An API key whose scopes leave out rest' };
  }
  if (route.auth === 'optionalApiKey') {
    out[401] = { description: 'An invalid or revoked API key (leave Authorization out to call without one)', headers: challenge };
    out[403] = { description: 'An API key whose scopes leave out rest' };
  }
  if (route.auth === 'automation') {
    out[400] = { description: `${BOTH_HEADERS}${route.body || route.query ? ', or a malformed request: the error names the fault' : ''}` };
    out[401] = { description: 'Missing, expired or invalid user JWT, or an invalid x-key', headers: challenge };
    out[403] = { description: 'An API key in x-key whose scopes leave out integrations, or a user not allowed this integration or asking for another user' };
  }
  if (route.auth === 'nocode') {
    out[401] = { description: 'Unknown email or wrong password, or a missing, invalid or revoked API key or user JWT', headers: challenge };
    out[403] = { description: 'An API key whose scopes leave out rest' };
  }
  if (route.auth === 'keyOrUser') {
    out[401] = { description: 'Missing, invalid or revoked API key, or a missing, expired or invalid user JWT', headers: challenge };
    out[403] = { description: 'An API key whose scopes leave out rest' };
  }
  if (route.idempotent) out[409] = { description: 'Idempotency-Key already used with a different request, or its first request is still running' };
  if (route.body) {
    out[413] = { description: 'Request body over 1 MiB' };
    out[415] = { description: 'A request body that is not application/json' };
  }
  if (route.rawBody) {
    out[413] = { description: route.rawBody.limitDescription };
    out[415] = { description: `A request body that is not ${Object.keys(route.rawBody.contentTypes).join(' or ')}` };
  }
  out[429] = { description: 'Too many requests: retry after the number of seconds in Retry-After', headers: retryAfter('Seconds to wait before retrying') };
  out[503] = { description: 'A backend (database, workflow engine) is briefly unavailable: retry', headers: retryAfter('Seconds to wait before retrying') };
  return out;
}

const operationId = (route: Route<any, any>) =>
  `${route.method}${openApiPath(route).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`;
const openApiPath = (route: Route<any, any>) => route.path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Query parameters; a query whose parameters depend on each other (oneOf) is one exploded object, so the rule is stated. */
function queryParameters(route: Route<any, any>): unknown[] {
  if (!route.query) return [];
  const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, { description?: string }>; required?: string[]; oneOf?: unknown };
  const example = route.example?.query;
  if (schema.oneOf) {
    return [
      {
        name: 'query',
        in: 'query',
        style: 'form',
        explode: true,
        required: true,
        description: (schema as { description?: string }).description,
        schema,
        example,
      },
    ];
  }
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: prop,
    description: prop.description,
    ...(example?.[name] !== undefined ? { example: example[name] } : {}),
  }));
}

/** The OpenAPI 3.1 document, generated from the routes' own zod schemas. */
export function buildOpenApi(routes: Route<any, any>[], urls: Record<'base_url' | 'integrations_url' | 'hooks_url' | 'wss_url', string>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters: unknown[] = [];
    for (const m of route.path.matchAll(/:([A-Za-z_]+)/g)) {
      const example = route.example?.params?.[m[1]!];
      parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' }, ...(example !== undefined ? { example } : {}) });
    }
    parameters.push(...queryParameters(route));
    if (route.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
        example: 'order-4711-attempt',
        description:
          '1–255 printable ASCII characters. A retry with the same key and request (within 24 h) replays the first response with header ' +
          'Idempotent-Replayed: true; the same key with another request, or while the first is still running, is a 409. ' +
          "Keys are per caller (API key, or user on the automation endpoint): another caller's same key runs anew.",
      });
    }
    const responses: Record<string, unknown> = {};
    const standard = standardFailures(route);
    for (const [status, given] of Object.entries({ ...standard, ...(route.responses as Record<string, Documented>) })) {
      const r = { ...standard[status], ...given };
      const failed = Number(status) >= 400;
      if (route.namesRun && Number(status) === (route.successStatus ?? 200)) r.headers = { ...r.headers, ...runHeaders(route.namesRun.when) };
      responses[status] = {
        description: r.description,
        ...(r.headers ? { headers: r.headers } : {}),
        ...(r.contentType
          ? { content: { [r.contentType]: { schema: { type: 'string' } } } }
          : r.schema || failed
            ? {
                content: {
                  'application/json': { schema: r.schema ? jsonSchema(r.schema, 'output') : route.failure ? jsonSchema(route.failure, 'output') : FAILURE_REF },
                },
              }
            : {}),
        ...(status === '200' && route.links ? { links: route.links } : {}),
      };
    }
    (paths[openApiPath(route)] ??= {})[route.method] = {
      operationId: operationId(route),
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security:
        route.auth === 'apiKey'
          ? [{ apiKey: [] }]
          : route.auth === 'optionalApiKey'
            ? [{}, { apiKey: [] }]
            : route.auth === 'automation'
              ? [{ userJwt: [] }, { superuserKey: [] }]
              : route.auth === 'nocode'
                ? [{ apiKey: [] }, { userJwt: [] }, {}]
                : route.auth === 'keyOrUser'
                  ? [{ apiKey: [] }, { userJwt: [] }]
                  : [],
      parameters: parameters.length ? parameters : undefined,
      requestBody: route.rawBody
        ? {
            required: true,
            content: Object.fromEntries(
              Object.entries(route.rawBody.contentTypes).map(([type, c]) => [
                type,
                { schema: c.schema, ...(c.example !== undefined ? { example: c.example } : {}) },
              ]),
            ),
          }
        : route.body
          ? {
              required: !route.bodyOptional,
              content: {
                'application/json': { schema: jsonSchema(route.body, 'input'), ...(route.example?.body !== undefined ? { example: route.example.body } : {}) },
              },
            }
          : undefined,
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1.9.0',
      description:
        'Leads, journeys, outbound AI calls, automations and web chat. REST paths live under {base_url} (which ends in /v1); ' +
        'the automation endpoint under {integrations_url}, chat session initialisation under {hooks_url} and the chat WebSocket under {wss_url}. ' +
        'Every error answers {"status":"failed","message":…}.',
    },
    // One origin serves all four hosts of the spec here; x-hosts names each host's address.
    servers: [{ url: urls.integrations_url }],
    'x-hosts': urls,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'REST: Authorization: Bearer <API key> (workspace settings → API keys)' },
        userJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: `Automation endpoint: a user JWT from login. ${BOTH_HEADERS}.` },
        superuserKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-key',
          description: `Automation endpoint: the workspace's API key (superuser mode in its workspace; its scopes must include integrations). ${BOTH_HEADERS}.`,
        },
      },
      schemas: { Failure: jsonSchema(failure, 'output') },
    },
    paths,
  };
}

/** The operationId the document gives a route (for links). */
export { operationId as operationIdOf };
