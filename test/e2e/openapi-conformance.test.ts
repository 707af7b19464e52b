import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { importSteps, newPhone, rowsWhen } from '../helpers/journeys';
import { startTestApp, type HttpResult, type TestApp } from '../helpers/stack';

// Issue 9 §3: every answer a handler gives is documented, and its body matches the declared schema, so the
// document cannot drift from the handlers. Each route must be seen answering 200 at least once.
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: { Failure: object } } };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; schema: object; example?: unknown }[];
  requestBody?: { content: { 'application/json': { schema: object; example?: unknown } } };
  responses: Record<string, { content?: { 'application/json': { schema: object } }; links?: Record<string, { operationId: string }> }>;
};

let app: TestApp;
let doc: Doc;
let ws: { workspaceId: string; apiKey: string; superuserKey?: string };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const seen = new Set<string>();

beforeAll(async () => {
  app = await startTestApp({ workers: true });
  ws = await app.newWorkspace({ superuser: true });
  doc = (await app.request('GET', '/v1/openapi.json')).body as Doc;
});
afterAll(() => app.close());

/** Inlines the shared Failure schema so each response schema compiles on its own. */
const inline = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('{"$ref":"#/components/schemas/Failure"}', JSON.stringify(doc.components.schemas.Failure)));

function conforms(method: string, path: string, res: HttpResult): void {
  const op = doc.paths[path]?.[method.toLowerCase()];
  const what = `${method} ${path} → ${res.status}`;
  expect([what, op !== undefined]).toEqual([what, true]);
  const declared = op!.responses[String(res.status)];
  expect([what, declared !== undefined ? 'documented' : `undocumented; documented: ${Object.keys(op!.responses).join(', ')}`]).toEqual([what, 'documented']);
  const schema = declared!.content?.['application/json']?.schema;
  expect([what, schema !== undefined]).toEqual([what, true]);
  const validate = ajv.compile(inline(schema!));
  const ok = validate(res.body);
  expect([what, ok ? 'conforms' : ajv.errorsText(validate.errors)]).toEqual([what, 'conforms']);
  if (res.status === 200) seen.add(`${method} ${path}`);
}

async function call(method: string, path: string, o: { body?: unknown; query?: Record<string, string>; key?: string | null; headers?: Record<string, string> } = {}) {
  const qs = o.query ? `?${new URLSearchParams(o.query).toString()}` : '';
  const res = await app.request(method, path + qs, { key: o.key === null ? undefined : (o.key ?? ws.apiKey), body: o.body, headers: o.headers });
  conforms(method, path, res);
  return res;
}

describe('the OpenAPI document against the handlers', () => {
  it('every answer of every route is documented and matches its declared schema', async () => {
    const { id: journeyId } = await importSteps(app, ws.workspaceId, [{ id: 'wait', kind: 'wait', duration: 'PT1H' }, { id: 'end', kind: 'end' }]);
    await call('GET', '/v1/me');
    await call('GET', '/v1/me', { key: null });
    await call('PUT', '/v1/lead/custom-fields', { body: { fields: [{ key: 'plan', label: 'Plan' }, { key: 'score' }] } });
    await call('PUT', '/v1/lead/custom-fields', { body: { fields: [{ key: 'phone' }] } });
    await call('GET', '/v1/lead/custom-fields');

    const phone = newPhone();
    const created = await call('POST', '/v1/lead/create', { body: { phone, first_name: 'Ann', timezone: 'America/New_York', plan: 'gold', extra: 1 } });
    const leadId = created.body.lead_id as string;
    await call('POST', '/v1/lead/create', { body: { phone } });
    await call('POST', '/v1/lead/create', { body: { phone: 'not a phone' } });
    await call('POST', '/v1/lead/create', { body: '{', headers: { 'content-type': 'application/json' } });
    await call('POST', '/v1/lead/create', { body: 'phone=1', headers: { 'content-type': 'text/plain' } });
    await call('POST', '/v1/lead/create', { body: { phone: newPhone() }, headers: { 'idempotency-key': 'k1' } });
    await call('POST', '/v1/lead/create', { body: { phone: newPhone() }, headers: { 'idempotency-key': 'k1' } });

    await call('GET', '/v1/lead/get', { query: { lead_id: leadId } });
    await call('GET', '/v1/lead/get', { query: { phone } });
    await call('GET', '/v1/lead/get', { query: { lead_id: randomUUID() } });
    await call('GET', '/v1/lead/get', { query: {} });
    const page = await call('GET', '/v1/leads', { query: { limit: '1' } });
    await call('GET', '/v1/leads', { query: { tag: 'High_Priority', q: 'ann', cursor: page.body.next_cursor ?? '' } });
    await call('GET', '/v1/leads', { query: { limit: '0' } });
    await call('GET', '/v1/journeys', { query: { limit: '1' } });
    await call('GET', '/v1/journeys', { query: { cursor: 'x' } });
    for (const id of [journeyId, randomUUID()]) conforms('GET', '/v1/journeys/{id}', await app.request('GET', `/v1/journeys/${id}`, { key: ws.apiKey }));

    await call('PATCH', '/v1/lead/update', { body: { lead_id: leadId, company: 'Initech', plan: null } });
    await call('PATCH', '/v1/lead/update', { body: { lead_id: randomUUID(), company: 'x' } });
    await call('PATCH', '/v1/lead/tag', { body: { lead_id: leadId, tag: 'High_Priority' } });
    await call('PATCH', '/v1/lead/tag', { body: { lead_id: leadId, tag: 'no spaces' } });
    await call('DELETE', '/v1/lead/tag', { query: { lead_id: leadId, tag: 'High_Priority' } });
    await call('DELETE', '/v1/lead/tag', { query: { lead_id: randomUUID(), tag: 'x' } });

    await call('POST', '/v1/lead/sendtoworkflow', { body: { workflow_id: journeyId, lead_id: leadId } });
    await call('PATCH', '/v1/lead/sendtoworkflow', { body: { workflow_id: journeyId, record: { phone: newPhone(), first_name: 'Bo', nope: 1 } } });
    await call('POST', '/v1/lead/sendtoworkflow', { body: { workflow_id: journeyId } });
    await call('POST', '/v1/lead/sendtoworkflow', { body: { workflow_id: randomUUID(), lead_id: leadId } });
    await rowsWhen(app, leadId, (rows) => rows.length === 1, 'enrollment row');
    await call('GET', '/v1/lead/enrollments', { query: { lead_id: leadId } });
    await call('GET', '/v1/lead/enrollments', { query: { lead_id: randomUUID() } });
    await call('GET', '/v1/lead/enrollments', { query: {} });
    await call('POST', '/v1/lead/unenroll', { body: { workflow_id: journeyId, lead_id: leadId, reason: 'done' } });
    await rowsWhen(app, leadId, (rows) => rows[0]?.status === 'unenrolled', 'unenrolled');
    await call('POST', '/v1/lead/unenroll', { body: { workflow_id: journeyId, lead_id: leadId } });
    await call('POST', '/v1/lead/unenroll', { body: { workflow_id: journeyId, lead_id: leadId, reason: 'a\u0000b' } });
    await call('GET', '/v1/lead/enrollments', { query: { lead_id: leadId } });
    await call('GET', '/v1/journeys/webhook-secret');
    await call('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey });
    await call('POST', '/v1/journeys/webhook-secret/rotate', { body: { grace_period_seconds: 60 } });
    await call('POST', '/v1/journeys/webhook-secret/rotate', { key: ws.superuserKey, body: { grace_period_seconds: -1 } });
    await call('POST', '/v1/journeys/webhook-secret/rotate', { key: ws.superuserKey, body: { grace_period_seconds: 60 } });

    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.filter((op) => !seen.has(op))).toEqual([]);
  });

  it('every request example is valid by its own schema, and links name real operations', () => {
    const ids = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId)));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const body = op.requestBody?.content['application/json'];
        if (body) {
          expect([method, path, 'body example', body.example !== undefined && ajv.validate(body.schema, body.example)]).toEqual([method, path, 'body example', true]);
        }
        for (const p of op.parameters ?? []) {
          if (p.in === 'header') continue;
          expect([method, path, p.name, p.example !== undefined && ajv.validate(p.schema, p.example)]).toEqual([method, path, p.name, true]);
        }
        for (const link of Object.values(op.responses['200']?.links ?? {})) expect(ids).toContain(link.operationId);
      }
    }
  });
});
