import fc from 'fast-check';
import { startTestApp, type HttpResult, type TestApp } from '../helpers/stack';

// R5 for the lead routes: generated junk never gets a 5xx, and every error is exactly {status:"failed", message}.
let app: TestApp;
let ws: Awaited<ReturnType<TestApp['newWorkspace']>>;
let leadId: string;
beforeAll(async () => {
  app = await startTestApp();
  ws = await app.newWorkspace();
  await app.request('PUT', '/v1/lead/custom-fields', { key: ws.apiKey, body: { fields: [{ key: 'plan' }, { key: 'score' }] } });
  leadId = (await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: '17145551234' } })).body.lead_id;
});
afterAll(() => app.close());

const RUNS = 40;
// Uniform code points rarely hit what breaks storage (NUL, lone surrogates) or parsing: mix those in on purpose.
const nasty = fc.constantFrom('\u0000', '\ud800', '\udfff', '\ufeff', '%00', '%', "'--", '\\', '💥', ' ', '1'.repeat(70), 'x'.repeat(300));
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  nasty,
  fc.tuple(fc.string({ maxLength: 10 }), nasty, fc.string({ maxLength: 10 })).map((parts) => parts.join('')),
);
const json = fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 });
const fieldName = fc.oneof(
  fc.constantFrom(
    'phone',
    'lead_id',
    'tag',
    'first_name',
    'last_name',
    'email',
    'company',
    'timezone',
    'custom_fields',
    'plan',
    'score',
    'fields',
    '__proto__',
  ),
  text,
);
const phoneish = fc.oneof(fc.constantFrom('17145551234', '+1 (714) 555-1234', '714-555-1234', '19495550000'), fc.stringMatching(/^\+?[\d ()-]{0,20}$/), text);
const leadIdish = fc.oneof(fc.constant('LEAD'), fc.uuid(), text);
const value = fc.oneof(phoneish, leadIdish, json);
const record = fc.dictionary(fieldName, value, { maxKeys: 8 });
const body = fc.oneof(
  record,
  json,
  fc.record({ fields: fc.array(fc.dictionary(fc.constantFrom('key', 'label', 'x'), fc.oneof(text, json)), { maxLength: 4 }) }),
);
const rawBody = fc.oneof(
  body.map((b) => JSON.stringify(b)),
  text,
);
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom('phone', 'lead_id', 'tag'), text), fc.oneof(phoneish, leadIdish, text)), { maxLength: 4 });
const idempotencyKey = fc.option(fc.string({ unit: 'binary-ascii', maxLength: 300 }).filter((s) => /^[\x20-\x7e\t]*$/.test(s)));

const withLead = (s: string) => s.replace(/LEAD/g, leadId);

function expectWellFormed(res: HttpResult, what: string): void {
  expect([what, res.status < 500]).toEqual([what, true]);
  if (res.status >= 400) {
    expect(res.body).toEqual({ status: 'failed', message: expect.any(String) });
    expect(Object.keys(res.body).sort()).toEqual(['message', 'status']);
  }
}

async function send(method: string, path: string, opts: { body?: string; key?: string | null; query?: [string, string][] }) {
  const qs = opts.query ? `?${new URLSearchParams(opts.query.map(([k, v]): [string, string] => [k, withLead(v)])).toString()}` : '';
  const headers: Record<string, string> = {};
  if (opts.key !== null && opts.key !== undefined) headers['idempotency-key'] = opts.key;
  const res = await app.request(method, path + qs, { key: ws.apiKey, body: opts.body === undefined ? undefined : withLead(opts.body), headers });
  expectWellFormed(res, `${method} ${path}${qs} ${opts.body ?? ''}`);
}

describe('lead routes under generated input', () => {
  it.each([
    ['POST', '/v1/lead/create'],
    ['PATCH', '/v1/lead/update'],
    ['PATCH', '/v1/lead/tag'],
    ['PUT', '/v1/lead/custom-fields'],
    ['POST', '/v1/lead/sendtoworkflow'],
    ['PATCH', '/v1/lead/sendtoworkflow'],
    ['POST', '/v1/lead/unenroll'],
  ])('%s %s: bodies', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(rawBody, idempotencyKey, (b, key) => send(method, path, { body: b, key })),
      { numRuns: RUNS },
    );
  });

  it.each([
    ['GET', '/v1/lead/get'],
    ['DELETE', '/v1/lead/tag'],
    ['GET', '/v1/lead/custom-fields'],
    ['GET', '/v1/lead/enrollments'],
  ])('%s %s: query strings', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(query, (q) => send(method, path, { query: q })),
      { numRuns: RUNS },
    );
  });

  // Near-valid bodies get past the schema, so junk reaches the handlers, the repository and Postgres.
  const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const standard = { first_name: opt(text), last_name: opt(fc.oneof(text, fc.constant(null))), email: opt(text), company: opt(text), timezone: opt(text) };
  it.each([
    ['POST', '/v1/lead/create', fc.record({ phone: phoneish, ...standard, plan: opt(json), score: opt(json), custom_fields: opt(json) })],
    ['PATCH', '/v1/lead/update', fc.record({ lead_id: fc.constant('LEAD'), phone: opt(phoneish), ...standard, plan: opt(json), x: opt(json) })],
    ['PATCH', '/v1/lead/tag', fc.record({ lead_id: fc.constant('LEAD'), tag: fc.oneof(text, fc.stringMatching(/^\w{1,70}$/)) })],
    [
      'PUT',
      '/v1/lead/custom-fields',
      fc.record({
        fields: fc.array(fc.record({ key: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,70}$/), text), label: opt(fc.oneof(text, fc.constant(null))) }), {
          minLength: 1,
          maxLength: 3,
        }),
      }),
    ],
  ] as const)('%s %s: near-valid bodies', async (method, path, arb) => {
    await fc.assert(
      fc.asyncProperty(arb as fc.Arbitrary<unknown>, (b) => send(method, path, { body: JSON.stringify(b) })),
      { numRuns: RUNS },
    );
  });
});
