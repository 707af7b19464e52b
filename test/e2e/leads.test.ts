import { startTestApp, type TestApp } from '../helpers/stack';
import { UUID_PATTERN } from '../../src/core/ids';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
const failed = (message: string) => ({ status: 'failed', message });
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const TAG_RULE = 'tag: letters, digits and underscores only, 1–64 characters';
const INVALID_PHONE = 'phone: not a valid phone number (include the country code, e.g. 17145551234, or use the workspace region format)';

async function create(ws: Ws, body: Record<string, unknown>) {
  const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body });
  expect(res.status).toBe(200);
  return res.body.lead as { lead_id: string; phone: string } & Record<string, unknown>;
}
const get = (ws: Ws, query: string) => app.request('GET', `/v1/lead/get?${query}`, { key: ws.apiKey });
const row = async (id: string) => (await app.db.one('SELECT * FROM leads WHERE id = $1', [id]))!;
const defineFields = (ws: Ws, fields: { key: string; label?: string | null }[]) =>
  app.request('PUT', '/v1/lead/custom-fields', { key: ws.apiKey, body: { fields } });

describe('GET /v1/lead/get', () => {
  it('finds the same lead from any phone format, and by lead_id', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '+1 (714) 555-1234', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', company: 'Engines' });
    const expected = {
      lead_id: lead.lead_id,
      phone: '17145551234',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      company: 'Engines',
      tags: [],
      created_at: ISO,
      updated_at: ISO,
    };
    for (const phone of ['+1 (714) 555-1234', '17145551234', '714-555-1234', '+17145551234']) {
      const res = await get(ws, `phone=${encodeURIComponent(phone)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
    const byId = await get(ws, `lead_id=${lead.lead_id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(expected);
  });

  it("reads a number without country code in the workspace's region", async () => {
    const ws = await app.newWorkspace({ defaultRegion: 'GB' });
    const lead = await create(ws, { phone: '020 7946 0958' });
    expect(lead.phone).toBe('442079460958');
    const res = await get(ws, `phone=${encodeURIComponent('+44 20 7946 0958')}`);
    expect(res.body.lead_id).toBe(lead.lead_id);
  });

  it.each([
    ['both parameters', 'phone=17145551234&lead_id=6f1c0b1e-5a4e-4d8e-9a57-1b2c3d4e5f60', 'query: provide phone or lead_id, not both'],
    ['neither parameter', '', 'query: provide phone or lead_id'],
    ['empty parameters (read as absent)', 'phone=&lead_id=', 'query: provide phone or lead_id'],
    ['an invalid phone', 'phone=12345', INVALID_PHONE],
    ['a phone with letters', 'phone=call-me-maybe', INVALID_PHONE],
    ['a malformed lead_id', 'lead_id=42', 'lead_id: must be a UUID'],
    ['a repeated phone', 'phone=17145551234&phone=17145551235', 'phone: expected string, received array'],
  ])('answers 400 for %s', async (_name, query, message) => {
    const ws = await app.newWorkspace();
    const res = await get(ws, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed(message));
  });

  it('answers 404 Lead not found for an unknown phone or lead_id', async () => {
    const ws = await app.newWorkspace();
    for (const query of ['phone=17145550000', 'lead_id=6f1c0b1e-5a4e-4d8e-9a57-1b2c3d4e5f60']) {
      const res = await get(ws, query);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(failed('Lead not found'));
    }
  });

  it('answers 401 without a key', async () => {
    const res = await app.request('GET', '/v1/lead/get?phone=17145551234');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(failed('Unauthorized: missing Authorization header'));
  });
});

describe('POST /v1/lead/create', () => {
  it('creates the lead (200) and stores it normalised, adding a missing US 1', async () => {
    const ws = await app.newWorkspace();
    const res = await app.request('POST', '/v1/lead/create', {
      key: ws.apiKey,
      body: { phone: '714 555 1234', first_name: ' Grace ', timezone: 'america/los_angeles' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      message: 'Lead created',
      lead_id: expect.stringMatching(UUID_PATTERN),
      lead: {
        lead_id: res.body.lead_id,
        phone: '17145551234',
        first_name: 'Grace',
        last_name: '',
        email: '',
        company: '',
        tags: [],
        timezone: 'America/Los_Angeles',
        created_at: ISO,
        updated_at: ISO,
      },
    });
    const stored = await row(res.body.lead_id);
    expect(stored).toMatchObject({ workspace_id: ws.workspaceId, phone: '17145551234', first_name: 'Grace', last_name: null, custom_fields: {} });
  });

  it('answers 409 with the existing lead_id when the phone is on file in any format', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    for (const phone of ['17145551234', '(714) 555-1234']) {
      const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone, first_name: 'Other' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(failed(`Lead already exists: lead_id ${lead.lead_id}`));
    }
    expect((await row(lead.lead_id)).first_name).toBeNull();
    expect(await app.db.query('SELECT id FROM leads WHERE workspace_id = $1', [ws.workspaceId])).toHaveLength(1);
  });

  it.each([
    ['no phone', { first_name: 'A' }, 'phone: required'],
    ['an invalid phone', { phone: '555' }, INVALID_PHONE],
    ['a malformed email', { phone: '17145551234', email: 'nope' }, 'email: Invalid email address'],
    ['an unknown time zone', { phone: '17145551234', timezone: 'Moon/Base' }, 'timezone: not a known IANA time zone (e.g. America/New_York)'],
    ['a non-string name', { phone: '17145551234', first_name: ['A'] }, 'first_name: expected string, received array'],
    ['a body that is not an object', [1, 2], 'body: expected object, received array'],
  ])('answers 400 for %s', async (_name, body, message) => {
    const ws = await app.newWorkspace();
    const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed(message));
    expect(await app.db.query('SELECT id FROM leads WHERE workspace_id = $1', [ws.workspaceId])).toHaveLength(0);
  });

  it('keeps defined custom fields and reports the others as ignored', async () => {
    const ws = await app.newWorkspace();
    expect((await defineFields(ws, [{ key: 'favorite_color', label: 'Favourite colour' }, { key: 'plan' }, { key: 'loyalty' }])).status).toBe(200);
    const res = await app.request('POST', '/v1/lead/create', {
      key: ws.apiKey,
      body: { phone: '17145551234', favorite_color: 'teal', plan: { tier: 'gold', seats: 3 }, shoe_size: 42, tags: ['x'], loyalty: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.ignored_fields).toEqual(['shoe_size', 'tags']);
    expect(res.body.lead.custom_fields).toEqual({ favorite_color: 'teal', plan: { tier: 'gold', seats: 3 } });
    expect(res.body.lead.tags).toEqual([]);
    expect((await row(res.body.lead_id)).custom_fields).toEqual({ favorite_color: 'teal', plan: { tier: 'gold', seats: 3 } });
    const fetched = await get(ws, `lead_id=${res.body.lead_id}`);
    expect(fetched.body.custom_fields).toEqual({ favorite_color: 'teal', plan: { tier: 'gold', seats: 3 } });
  });

  it('has no ignored_fields when nothing was ignored', async () => {
    const ws = await app.newWorkspace();
    const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: '17145551234', company: 'Acme' } });
    expect(Object.keys(res.body).sort()).toEqual(['lead', 'lead_id', 'message', 'status']);
  });
});

describe('PATCH /v1/lead/update', () => {
  it('changes the supplied fields only, custom fields flat at the top level', async () => {
    const ws = await app.newWorkspace();
    await defineFields(ws, [{ key: 'favorite_color' }, { key: 'plan' }]);
    const lead = await create(ws, { phone: '17145551234', first_name: 'Ada', last_name: 'L', company: 'Engines', favorite_color: 'red', plan: 'basic' });
    const res = await app.request('PATCH', '/v1/lead/update', {
      key: ws.apiKey,
      body: { lead_id: lead.lead_id, last_name: 'Lovelace', company: '', favorite_color: 'blue', plan: null, nickname: 'A' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      message: 'Lead updated',
      lead_id: lead.lead_id,
      lead: {
        lead_id: lead.lead_id,
        phone: '17145551234',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: '',
        company: '',
        tags: [],
        created_at: lead.created_at,
        updated_at: ISO,
        custom_fields: { favorite_color: 'blue' },
      },
      ignored_fields: ['nickname'],
    });
    expect(await row(lead.lead_id)).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', company: null, custom_fields: { favorite_color: 'blue' } });
  });

  it('changes nothing (not even updated_at) when every field is ignored, and says which', async () => {
    const ws = await app.newWorkspace();
    await defineFields(ws, [{ key: 'constructor' }]);
    const lead = await create(ws, { phone: '17145551234' });
    const before = await row(lead.lead_id);
    const res = await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: lead.lead_id, nickname: 'A', tags: ['x'] } });
    expect(res.status).toBe(200);
    expect(res.body.ignored_fields).toEqual(['nickname', 'tags']);
    expect(await row(lead.lead_id)).toEqual(before);
    // A defined key that happens to be an Object.prototype name is an ordinary custom field.
    const named = await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: lead.lead_id, constructor: 'x' } });
    expect(named.body.lead.custom_fields).toEqual({ constructor: 'x' });
  });

  it('re-normalises a new phone', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    const res = await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: lead.lead_id, phone: '(949) 555-0000' } });
    expect(res.status).toBe(200);
    expect(res.body.lead.phone).toBe('19495550000');
    expect((await get(ws, 'phone=949-555-0000')).body.lead_id).toBe(lead.lead_id);
  });

  it("answers 409 when the new phone is another lead's, and changes nothing", async () => {
    const ws = await app.newWorkspace();
    const a = await create(ws, { phone: '17145551234' });
    const b = await create(ws, { phone: '19495550000', first_name: 'B' });
    const before = await row(b.lead_id);
    const res = await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: b.lead_id, phone: '714.555.1234', first_name: 'X' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(failed(`Lead already exists with this phone: lead_id ${a.lead_id}`));
    expect(await row(b.lead_id)).toEqual(before);
  });

  it('answers 404 for an unknown lead and 400 for bad input', async () => {
    const ws = await app.newWorkspace();
    const unknown = await app.request('PATCH', '/v1/lead/update', {
      key: ws.apiKey,
      body: { lead_id: '6f1c0b1e-5a4e-4d8e-9a57-1b2c3d4e5f60', first_name: 'X' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(failed('Lead not found'));
    const lead = await create(ws, { phone: '17145551234' });
    for (const [body, message] of [
      [{ first_name: 'X' }, 'lead_id: required'],
      [{ lead_id: lead.lead_id, phone: 'none' }, INVALID_PHONE],
      [{ lead_id: lead.lead_id, phone: null }, 'phone: must be a string'],
      [{ lead_id: lead.lead_id, email: 'x@' }, 'email: Invalid email address'],
    ] as const) {
      const res = await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failed(message));
    }
  });
});

describe('PATCH and DELETE /v1/lead/tag', () => {
  it('adds a tag once; adding it again is success without a duplicate', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    const first = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.lead_id, tag: 'High_Priority' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'success', lead_id: lead.lead_id, tag: 'High_Priority', message: 'Tag added to lead' });
    const again = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.lead_id, tag: 'High_Priority' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'success', lead_id: lead.lead_id, tag: 'High_Priority', message: 'Lead already has this tag' });
    expect((await row(lead.lead_id)).tags).toEqual(['High_Priority']);
    expect((await get(ws, `lead_id=${lead.lead_id}`)).body.tags).toEqual(['High_Priority']);
  });

  it.each([['high priority'], ['x'.repeat(65)], [''], ['dash-ed'], ['émoji']])('rejects the tag %j with the rule', async (tag) => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    const res = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.lead_id, tag } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed(TAG_RULE));
    const del = await app.request('DELETE', `/v1/lead/tag?lead_id=${lead.lead_id}&tag=${encodeURIComponent(tag)}`, { key: ws.apiKey });
    expect(del.status).toBe(400);
    expect(del.body).toEqual(failed(TAG_RULE));
    expect((await row(lead.lead_id)).tags).toEqual([]);
  });

  it('accepts a 64-character tag', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    const res = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.lead_id, tag: 'A_9'.repeat(21) + 'z' } });
    expect(res.status).toBe(200);
  });

  it('puts the phone on the do-not-call list when tagged dnc, also after a phone change', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    const other = await create(ws, { phone: '19495550000' });
    const res = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.lead_id, tag: 'dnc' } });
    expect(res.status).toBe(200);
    const dnc = () => app.db.query('SELECT phone, reason FROM do_not_call WHERE workspace_id = $1 ORDER BY phone', [ws.workspaceId]);
    expect(await dnc()).toEqual([{ phone: '17145551234', reason: 'tagged dnc' }]);
    await app.request('PATCH', '/v1/lead/update', { key: ws.apiKey, body: { lead_id: lead.lead_id, phone: '13105550000' } });
    expect(await dnc()).toEqual([
      { phone: '13105550000', reason: 'tagged dnc' },
      { phone: '17145551234', reason: 'tagged dnc' },
    ]);
    // Other tags and other leads leave the list alone; DNC in capitals counts.
    await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: other.lead_id, tag: 'dnc_maybe' } });
    expect(await dnc()).toHaveLength(2);
    await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: other.lead_id, tag: 'DNC' } });
    expect((await dnc()).map((r) => r.phone)).toEqual(['13105550000', '17145551234', '19495550000']);
  });

  it('removes a tag; removing an absent tag is success', async () => {
    const ws = await app.newWorkspace();
    const lead = await create(ws, { phone: '17145551234' });
    for (const tag of ['a', 'b']) await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead.lead_id, tag } });
    const res = await app.request('DELETE', `/v1/lead/tag?lead_id=${lead.lead_id}&tag=a`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', lead_id: lead.lead_id, tag: 'a', message: 'Tag removed from lead' });
    expect((await row(lead.lead_id)).tags).toEqual(['b']);
    const absent = await app.request('DELETE', `/v1/lead/tag?lead_id=${lead.lead_id}&tag=zzz`, { key: ws.apiKey });
    expect(absent.status).toBe(200);
    expect((await row(lead.lead_id)).tags).toEqual(['b']);
  });

  it('answers 404 for an unknown lead and 400 without a lead_id', async () => {
    const ws = await app.newWorkspace();
    const id = '6f1c0b1e-5a4e-4d8e-9a57-1b2c3d4e5f60';
    const add = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: id, tag: 'x' } });
    const del = await app.request('DELETE', `/v1/lead/tag?lead_id=${id}&tag=x`, { key: ws.apiKey });
    for (const res of [add, del]) expect([res.status, res.body]).toEqual([404, failed('Lead not found')]);
    const missing = await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { tag: 'x' } });
    expect([missing.status, missing.body]).toEqual([400, failed('lead_id: required')]);
  });
});

describe('custom field definitions', () => {
  it('defines, relabels and lists fields; unlisted fields stay', async () => {
    const ws = await app.newWorkspace();
    const first = await defineFields(ws, [{ key: 'plan', label: 'Plan' }, { key: 'favorite_color' }]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: 'success',
      fields: [
        { key: 'favorite_color', label: null },
        { key: 'plan', label: 'Plan' },
      ],
    });
    await defineFields(ws, [{ key: 'favorite_color', label: 'Colour' }, { key: 'plan' }]);
    const list = await app.request('GET', '/v1/lead/custom-fields', { key: ws.apiKey });
    expect(list.body).toEqual({
      status: 'success',
      fields: [
        { key: 'favorite_color', label: 'Colour' },
        { key: 'plan', label: 'Plan' },
      ],
    });
    const other = await app.newWorkspace();
    expect((await app.request('GET', '/v1/lead/custom-fields', { key: other.apiKey })).body).toEqual({ status: 'success', fields: [] });
  });

  it.each([
    ['Plan', 'fields.0.key: lowercase letters, digits and underscores, starting with a letter, 1–64 characters'],
    ['9lives', 'fields.0.key: lowercase letters, digits and underscores, starting with a letter, 1–64 characters'],
    ['__proto__', 'fields.0.key: lowercase letters, digits and underscores, starting with a letter, 1–64 characters'],
    ['phone', 'fields.0.key: is a standard lead field or a reserved name'],
    ['tags', 'fields.0.key: is a standard lead field or a reserved name'],
  ])('rejects the key %j', async (key, message) => {
    const ws = await app.newWorkspace();
    const res = await defineFields(ws, [{ key }]);
    expect([res.status, res.body]).toEqual([400, failed(message)]);
    expect(await app.db.query('SELECT key FROM custom_fields WHERE workspace_id = $1', [ws.workspaceId])).toEqual([]);
  });

  it('is also a CLI command', async () => {
    const ws = await app.newWorkspace();
    const { main } = await import('../../src/cli/main');
    const logs: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void logs.push(line));
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const saved = { url: process.env.DATABASE_URL, exitCode: process.exitCode };
    process.env.DATABASE_URL = app.config.DATABASE_URL;
    try {
      await main(['custom-field', 'define', '--workspace', ws.workspaceId, '--key', 'loyalty_tier', '--label', 'Loyalty tier']);
      expect(process.exitCode ?? 0).toBe(saved.exitCode ?? 0);
      expect(JSON.parse(logs.join('\n'))).toEqual({ status: 'success', workspace_id: ws.workspaceId, key: 'loyalty_tier', label: 'Loyalty tier' });
      await main(['custom-field', 'define', '--workspace', ws.workspaceId, '--key', 'Bad-Key']);
      expect(process.exitCode).toBe(64);
      expect(errors.mock.calls[0]![0]).toMatch(/^error: --key: lowercase letters, digits and underscores/);
    } finally {
      process.exitCode = saved.exitCode;
      process.env.DATABASE_URL = saved.url;
      log.mockRestore();
      errors.mockRestore();
    }
    const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: '17145551234', loyalty_tier: 'gold' } });
    expect(res.body.lead.custom_fields).toEqual({ loyalty_tier: 'gold' });
  });
});

describe('workspace isolation', () => {
  it("answers 404 on every lead route given another workspace's lead, and changes nothing", async () => {
    const a = await app.newWorkspace();
    const b = await app.newWorkspace();
    await defineFields(b, [{ key: 'plan' }]);
    const lead = await create(a, { phone: '17145551234', first_name: 'Ada' });
    await app.request('PATCH', '/v1/lead/tag', { key: a.apiKey, body: { lead_id: lead.lead_id, tag: 'keep' } });
    const before = await row(lead.lead_id);
    const id = lead.lead_id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/lead/get?lead_id=${id}`],
      ['GET', '/v1/lead/get?phone=17145551234'],
      ['PATCH', '/v1/lead/update', { lead_id: id, first_name: 'Mallory', plan: 'x' }],
      ['PATCH', '/v1/lead/update', { lead_id: id, phone: '19495550000' }],
      ['PATCH', '/v1/lead/tag', { lead_id: id, tag: 'dnc' }],
      ['DELETE', `/v1/lead/tag?lead_id=${id}&tag=keep`],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.request(method, path, { key: b.apiKey, body });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, failed('Lead not found')]);
    }
    expect(await row(id)).toEqual(before);
    expect(
      await app.db.query('SELECT * FROM do_not_call WHERE phone = $1 AND workspace_id IN ($2, $3)', ['17145551234', a.workspaceId, b.workspaceId]),
    ).toEqual([]);
    // The same phone is free in the other workspace.
    const own = await app.request('POST', '/v1/lead/create', { key: b.apiKey, body: { phone: '17145551234' } });
    expect(own.status).toBe(200);
    expect(own.body.lead_id).not.toBe(id);
  });
});

describe('OpenAPI', () => {
  it('documents the lead routes from their schemas', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/lead/get', '/v1/lead/create', '/v1/lead/update', '/v1/lead/tag', '/v1/lead/custom-fields']),
    );
    // phone and lead_id depend on each other (exactly one), so they are one exploded query object that can say so.
    const [query] = doc.paths['/v1/lead/get'].get.parameters;
    expect([query.in, query.explode, Object.keys(query.schema.properties), query.schema.oneOf]).toEqual([
      'query',
      true,
      ['phone', 'lead_id'],
      [{ required: ['phone'] }, { required: ['lead_id'] }],
    ]);
    expect(doc.paths['/v1/lead/tag'].patch.requestBody.content['application/json'].schema.properties.tag.description).toMatch(/underscores/);
    expect(doc.paths['/v1/lead/create'].post.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]);
    expect(doc.paths['/v1/lead/tag'].delete.parameters.map((p: { name: string }) => p.name)).toEqual(['lead_id', 'tag']);
  });
});
