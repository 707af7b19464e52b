import { randomUUID } from 'node:crypto';
import { uniquePhone } from '../helpers/phones';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(60_000);

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
const written = (digits: string) => `(${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
const counts = async (ws: Ws) => {
  const [row] = await app.db.query<{ agents: number; numbers: number; groups: number }>(
    `SELECT (SELECT count(*) FROM agents WHERE workspace_id = $1)::int AS agents, (SELECT count(*) FROM phone_numbers WHERE workspace_id = $1)::int AS numbers,
            (SELECT count(*) FROM phone_groups WHERE workspace_id = $1)::int AS groups`,
    [ws.workspaceId],
  );
  return row!;
};
const post = (ws: Ws, path: string, body: unknown, headers?: Record<string, string>) => app.request('POST', path, { key: ws.apiKey, body, headers });
const patch = (ws: Ws, path: string, body: unknown, headers?: Record<string, string>) => app.request('PATCH', path, { key: ws.apiKey, body, headers });

// What an agent created without voice settings shows: the voice runtime's defaults, so it speaks out of the box.
const DEFAULT_VOICE_FIELDS = {
  prompt: expect.stringContaining('Greet the callee'),
  first_message: 'Hi {{first_name}}, this is {{agent_name}} calling from {{company}}. Is now a good time?',
  voice: { engine: 'local/piper', voice_id: null },
  language: 'en-US',
  stt: { engine: 'local/whisper-tiny.en' },
  llm: { engine: 'scripted' },
  interruptible: true,
  silence_timeout_s: 10,
  max_duration_s: 600,
  end_call_phrases: ['goodbye', 'bye'],
};

describe('voice settings of an agent', () => {
  it('are stored on create, changed field by field on PATCH, null back to the default, refused when malformed', async () => {
    const ws = await app.newWorkspace();
    const settings = {
      prompt: 'Confirm the cleaning.\nFacts:\n- The clinic opens at nine.',
      first_message: 'Hello {{first_name}}, Ava from {{company}} here.',
      voice: { engine: 'local/piper', voice_id: 'en_US-joe-medium' },
      language: 'en-GB',
      stt: { engine: 'deepgram/nova-3' },
      llm: { engine: 'openai' },
      interruptible: false,
      silence_timeout_s: 7,
      max_duration_s: 300,
      end_call_phrases: ['have a good day'],
    };
    const created = await post(ws, '/v1/agents', { name: 'Ava', ...settings });
    expect(created.status).toBe(200);
    expect(created.body.agent).toMatchObject(settings);
    const id = created.body.agent.id as string;
    const patched = await app.request('PATCH', `/v1/agents/${id}`, { key: ws.apiKey, body: { silence_timeout_s: 12, prompt: null, voice: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.agent).toMatchObject({
      ...settings,
      silence_timeout_s: 12,
      prompt: DEFAULT_VOICE_FIELDS.prompt,
      voice: DEFAULT_VOICE_FIELDS.voice,
    });
    for (const bad of [{ silence_timeout_s: 0 }, { language: 'english please' }, { voice: { engine: 'Piper Voice!' } }, { end_call_phrases: [''] }]) {
      const res = await app.request('PATCH', `/v1/agents/${id}`, { key: ws.apiKey, body: bad });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('failed');
    }
    expect((await app.request('GET', `/v1/agents/${id}`, { key: ws.apiKey })).body.agent.silence_timeout_s).toBe(12);
  });
});

describe('POST /v1/agents', () => {
  it('creates an agent with normalised phones, its numbers in a new phone group, and a call window', async () => {
    const ws = await app.newWorkspace();
    const [n1, n2] = [uniquePhone(), uniquePhone()];
    const window = { start: '09:00', end: '18:00', days: ['mon', 'fri'] };
    const res = await post(ws, '/v1/agents', {
      name: ' Ava ',
      transfer_number: '+1 (714) 555-1234',
      numbers: [written(n1), `+${n2}`, n1],
      call_window: window,
      phone_group: 'West',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      agent: {
        id: expect.any(String),
        name: 'Ava',
        profile_picture: null,
        transfer_number: '17145551234',
        call_window: window,
        phone_group_id: expect.any(String),
        numbers: expect.arrayContaining([n1, n2]),
        created_at: expect.any(String),
        ...DEFAULT_VOICE_FIELDS,
      },
    });
    const { agent } = res.body;
    expect(agent.numbers).toHaveLength(2);
    expect((await app.request('GET', `/v1/agents/${agent.id}`, { key: ws.apiKey })).body.agent).toEqual(agent);
    const [group] = await app.db.query<{ name: string }>('SELECT name FROM phone_groups WHERE id = $1', [agent.phone_group_id]);
    expect(group!.name).toBe('West');
    const numbers = (await app.request('GET', '/v1/phone-numbers', { key: ws.apiKey })).body.phone_numbers;
    expect(numbers.map((p: { number: string; agent_id: string }) => [p.number, p.agent_id]).sort()).toEqual(
      [
        [n1, agent.id],
        [n2, agent.id],
      ].sort(),
    );

    const bare = await post(ws, '/v1/agents', { name: 'Bo' });
    expect(bare.body.agent).toMatchObject({ name: 'Bo', phone_group_id: null, numbers: [], call_window: null, transfer_number: null });
  });

  it.each([
    ['no name', {}, 'name: required'],
    ['an empty name', { name: '  ' }, 'name: must not be empty'],
    ['a bad number', { name: 'A', numbers: ['12'] }, 'numbers: 12 is not a valid phone number'],
    ['a bad transfer number', { name: 'A', transfer_number: 'call me' }, 'transfer_number: call me is not a valid phone number'],
    ['a window that ends before it starts', { name: 'A', call_window: { start: '18:00', end: '09:00' } }, 'call_window.end: start must be before end'],
    [
      'a window with a bad day',
      { name: 'A', call_window: { start: '08:00', end: '09:00', days: ['someday'] } },
      expect.stringMatching(/^call_window\.days\.0: /),
    ],
    ['a picture that is not an http(s) URL', { name: 'A', profile_picture: 'ftp://x.test/a.png' }, 'profile_picture: must be an http(s) URL'],
    ['an unknown field', { name: 'A', voice: 'x' }, expect.stringMatching(/voice/)],
  ])('answers 400 for %s and creates nothing', async (_, body, message) => {
    const ws = await app.newWorkspace();
    const res = await post(ws, '/v1/agents', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'failed', message });
    expect(await counts(ws)).toEqual({ agents: 0, numbers: 0, groups: 0 });
  });

  it("answers 409 for another workspace's number, naming neither the workspace nor the number, and creates nothing", async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const theirs = uniquePhone();
    expect((await post(other, '/v1/phone-numbers', { number: theirs })).status).toBe(200);
    const res = await post(ws, '/v1/agents', { name: 'A', numbers: [uniquePhone(), written(theirs)] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ status: 'failed', message: 'Phone number belongs to another workspace' });
    expect(await counts(ws)).toEqual({ agents: 0, numbers: 0, groups: 0 });
  });

  it('creates one agent for a retried request with the same Idempotency-Key', async () => {
    const ws = await app.newWorkspace();
    const body = { name: 'Once', numbers: [uniquePhone()] };
    const first = await post(ws, '/v1/agents', body, { 'idempotency-key': 'agent-1' });
    const again = await post(ws, '/v1/agents', body, { 'idempotency-key': 'agent-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await counts(ws)).toEqual({ agents: 1, numbers: 1, groups: 1 });
    expect((await post(ws, '/v1/agents', { name: 'Other' }, { 'idempotency-key': 'agent-1' })).status).toBe(409);
  });
});

describe('PATCH /v1/agents/{id}', () => {
  it("changes the given fields only, and replaces the numbers (moving the workspace's, detaching the others)", async () => {
    const ws = await app.newWorkspace();
    const [a1, a2, b1, fresh] = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const a = (await post(ws, '/v1/agents', { name: 'A', transfer_number: '17145551234', numbers: [a1, a2], call_window: { start: '09:00', end: '17:00' } }))
      .body.agent;
    const b = (await post(ws, '/v1/agents', { name: 'B', numbers: [b1] })).body.agent;

    const renamed = await patch(ws, `/v1/agents/${a.id}`, { name: 'A2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.agent).toEqual({ ...a, name: 'A2' });

    const res = await patch(ws, `/v1/agents/${a.id}`, {
      transfer_number: null,
      call_window: null,
      profile_picture: 'https://x.test/a.png',
      numbers: [a1, b1, written(fresh)],
    });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({
      name: 'A2',
      transfer_number: null,
      call_window: null,
      profile_picture: 'https://x.test/a.png',
      phone_group_id: a.phone_group_id,
    });
    expect([...res.body.agent.numbers].sort()).toEqual([a1, b1, fresh].sort());
    expect((await app.request('GET', `/v1/agents/${b.id}`, { key: ws.apiKey })).body.agent.numbers).toEqual([]);
    const numbers = (await app.request('GET', '/v1/phone-numbers', { key: ws.apiKey })).body.phone_numbers as { number: string; agent_id: string | null }[];
    expect(Object.fromEntries(numbers.map((p) => [p.number, p.agent_id]))).toEqual({ [a1]: a.id, [a2]: null, [b1]: a.id, [fresh]: a.id });

    // An agent without a phone group gets one when it is given numbers.
    const bare = (await post(ws, '/v1/agents', { name: 'C' })).body.agent;
    const given = await patch(ws, `/v1/agents/${bare.id}`, { numbers: [a2] });
    expect(given.body.agent).toMatchObject({ numbers: [a2], phone_group_id: expect.any(String) });
    const emptied = await patch(ws, `/v1/agents/${bare.id}`, { numbers: [] });
    expect(emptied.body.agent.numbers).toEqual([]);
  });

  it("answers 404 for another workspace's agent, an unknown and a malformed id, and changes nothing", async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const theirs = (await post(other, '/v1/agents', { name: 'Theirs' })).body.agent;
    for (const id of [theirs.id, randomUUID(), 'nope']) {
      const res = await patch(ws, `/v1/agents/${id}`, { name: 'Mine' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'failed', message: 'Agent not found' });
    }
    expect((await app.request('GET', `/v1/agents/${theirs.id}`, { key: other.apiKey })).body.agent.name).toBe('Theirs');
  });

  it('answers 400 for bad fields and 409 for a number of another workspace, changing nothing', async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const mine = uniquePhone();
    const a = (await post(ws, '/v1/agents', { name: 'A', numbers: [mine] })).body.agent;
    for (const [body, message] of [
      [{ name: '' }, 'name: must not be empty'],
      [{ numbers: ['x'] }, 'numbers: x is not a valid phone number'],
      [{ call_window: { start: '25:00', end: '26:00' } }, expect.stringMatching(/^call_window\.start: /)],
      [{ phone_group: 'x' }, expect.stringMatching(/phone_group/)],
    ] as const) {
      const res = await patch(ws, `/v1/agents/${a.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'failed', message });
    }
    const theirs = uniquePhone();
    await post(other, '/v1/phone-numbers', { number: theirs });
    const taken = await patch(ws, `/v1/agents/${a.id}`, { name: 'Changed', numbers: [theirs] });
    expect(taken.status).toBe(409);
    expect((await app.request('GET', `/v1/agents/${a.id}`, { key: ws.apiKey })).body.agent).toEqual(a);
  });
});

describe('POST /v1/phone-numbers and PATCH /v1/phone-numbers/{number}', () => {
  it('adds numbers with or without an agent, and moves or detaches them by id or by number', async () => {
    const ws = await app.newWorkspace();
    const a = (await post(ws, '/v1/agents', { name: 'A' })).body.agent;
    const b = (await post(ws, '/v1/agents', { name: 'B', numbers: [uniquePhone()] })).body.agent;
    const [loose, withAgent] = [uniquePhone(), uniquePhone()];
    const added = await post(ws, '/v1/phone-numbers', { number: `+${loose}` });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      status: 'success',
      phone_number: { id: expect.any(String), number: loose, agent_id: null, phone_group_id: null, created_at: expect.any(String) },
    });
    const joined = await post(ws, '/v1/phone-numbers', { number: written(withAgent), agent_id: a.id });
    expect(joined.body.phone_number).toMatchObject({ number: withAgent, agent_id: a.id, phone_group_id: expect.any(String) });
    expect((await app.request('GET', `/v1/agents/${a.id}`, { key: ws.apiKey })).body.agent.numbers).toEqual([withAgent]);

    const moved = await patch(ws, `/v1/phone-numbers/${added.body.phone_number.id}`, { agent_id: b.id });
    expect(moved.body.phone_number).toMatchObject({ id: added.body.phone_number.id, number: loose, agent_id: b.id, phone_group_id: b.phone_group_id });
    const byNumber = await patch(ws, `/v1/phone-numbers/${encodeURIComponent(written(loose))}`, { agent_id: null });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.phone_number).toMatchObject({ number: loose, agent_id: null, phone_group_id: null });
    const byPlus = await patch(ws, `/v1/phone-numbers/+${loose}`, { agent_id: a.id });
    expect(byPlus.body.phone_number).toMatchObject({ number: loose, agent_id: a.id });
    expect([...(await app.request('GET', `/v1/agents/${a.id}`, { key: ws.apiKey })).body.agent.numbers].sort()).toEqual([loose, withAgent].sort());
  });

  it('keeps a number to one workspace: 409 for a number already added here (with its id) or elsewhere (without saying where)', async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const phone = uniquePhone();
    const mine = (await post(ws, '/v1/phone-numbers', { number: phone })).body.phone_number;
    const again = await post(ws, '/v1/phone-numbers', { number: written(phone) });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ status: 'failed', message: `Phone number already added: id ${mine.id}` });
    const theirs = await post(other, '/v1/phone-numbers', { number: `+${phone}` });
    expect(theirs.status).toBe(409);
    expect(theirs.body).toEqual({ status: 'failed', message: 'Phone number belongs to another workspace' });
    expect((await counts(other)).numbers).toBe(0);
  });

  it('adds a number once when two workspaces race for it', async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const phone = uniquePhone();
    const results = await Promise.all([ws, other, ws, other].map((w) => post(w, '/v1/phone-numbers', { number: phone })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const [row] = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM phone_numbers WHERE phone = $1', [phone]);
    expect(row!.n).toBe(1);
  });

  it.each([
    ['a bad number', { number: '555' }, 'number: 555 is not a valid phone number'],
    ['no number', {}, 'number: required'],
    ['a malformed agent_id', { number: '17145550000', agent_id: 'x' }, 'agent_id: must be a UUID'],
    ['an unknown field', { number: '17145550000', label: 'x' }, expect.stringMatching(/label/)],
  ])('answers 400 for %s and adds nothing', async (_, body, message) => {
    const ws = await app.newWorkspace();
    const res = await post(ws, '/v1/phone-numbers', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'failed', message });
    expect((await counts(ws)).numbers).toBe(0);
  });

  it("answers 404 for another workspace's agent or number, changing nothing", async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const theirAgent = (await post(other, '/v1/agents', { name: 'Theirs' })).body.agent;
    const theirNumber = (await post(other, '/v1/phone-numbers', { number: uniquePhone() })).body.phone_number;
    const mine = (await post(ws, '/v1/phone-numbers', { number: uniquePhone() })).body.phone_number;

    const withTheirAgent = await post(ws, '/v1/phone-numbers', { number: uniquePhone(), agent_id: theirAgent.id });
    expect(withTheirAgent.status).toBe(404);
    expect(withTheirAgent.body).toEqual({ status: 'failed', message: 'Agent not found' });
    expect((await patch(ws, `/v1/phone-numbers/${mine.id}`, { agent_id: theirAgent.id })).status).toBe(404);
    for (const ref of [theirNumber.id, theirNumber.number, randomUUID(), 'nope']) {
      const res = await patch(ws, `/v1/phone-numbers/${ref}`, { agent_id: null });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'failed', message: 'Phone number not found' });
    }
    expect((await counts(ws)).numbers).toBe(1);
    expect((await app.request('GET', '/v1/phone-numbers', { key: other.apiKey })).body.phone_numbers).toEqual([theirNumber]);
  });

  it('replays a retried add with the same Idempotency-Key', async () => {
    const ws = await app.newWorkspace();
    const body = { number: uniquePhone() };
    const first = await post(ws, '/v1/phone-numbers', body, { 'idempotency-key': 'n-1' });
    const again = await post(ws, '/v1/phone-numbers', body, { 'idempotency-key': 'n-1' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect((await counts(ws)).numbers).toBe(1);
  });
});
