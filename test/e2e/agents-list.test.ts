import { randomUUID } from 'node:crypto';
import { createAgent, createPhoneGroup } from '../../src/agents/db/agents';
import { uniquePhone } from '../helpers/phones';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(60_000);

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** Reads every page of a listing with the given page size; fails on a page that repeats an item. */
async function allPages(key: string, path: string, field: string, limit: number): Promise<{ id: string }[]> {
  const items: { id: string }[] = [];
  let cursor: string | null = null;
  do {
    const res = await app.request('GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { key });
    expect(res.status).toBe(200);
    expect(res.body[field].length).toBeLessThanOrEqual(limit);
    items.push(...res.body[field]);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

describe('GET /v1/agents and GET /v1/phone-numbers', () => {
  it('lists agents with their numbers and numbers with their agent, newest first, a page at a time', async () => {
    const ws = await app.newWorkspace();
    const other = await app.newWorkspace();
    const [n1, n2, n3, loose] = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const group = await createPhoneGroup(app.db, ws.workspaceId, { name: 'west', numbers: [n1, n2] });
    const ava = await createAgent(app.db, ws.workspaceId, { name: 'Ava', transferNumber: '18005550100', phoneGroupId: group.id });
    await app.db.query(`UPDATE agents SET call_window = '{"start":"09:00","end":"17:00","days":["mon","tue"]}' WHERE id = $1`, [ava.id]);
    const bare = await createAgent(app.db, ws.workspaceId, { name: 'Bo' });
    const eastGroup = await createPhoneGroup(app.db, ws.workspaceId, { name: 'east', numbers: [n3] });
    const cy = await createAgent(app.db, ws.workspaceId, { name: 'Cy', phoneGroupId: eastGroup.id });
    await app.db.query('INSERT INTO phone_numbers (id, workspace_id, phone_group_id, phone) VALUES ($1, $2, NULL, $3)', [randomUUID(), ws.workspaceId, loose]);
    const theirGroup = await createPhoneGroup(app.db, other.workspaceId, { name: 'theirs', numbers: [uniquePhone()] });
    await createAgent(app.db, other.workspaceId, { name: 'Theirs', phoneGroupId: theirGroup.id });

    // Agents without voice settings show the voice runtime's defaults.
    const voiceDefaults = {
      prompt: expect.any(String),
      first_message: expect.any(String),
      voice: { engine: 'local/piper', voice_id: null },
      language: 'en-US',
      stt: { engine: 'local/whisper-tiny.en' },
      llm: { engine: 'scripted' },
      interruptible: true,
      silence_timeout_s: 10,
      max_duration_s: 600,
      end_call_phrases: ['goodbye', 'bye'],
    };
    const agents = await app.request('GET', '/v1/agents', { key: ws.apiKey });
    expect(agents.status).toBe(200);
    expect(agents.body).toEqual({
      status: 'success',
      agents: [
        {
          id: cy.id,
          name: 'Cy',
          profile_picture: null,
          transfer_number: null,
          call_window: null,
          phone_group_id: eastGroup.id,
          numbers: [n3],
          created_at: ISO,
          ...voiceDefaults,
        },
        {
          id: bare.id,
          name: 'Bo',
          profile_picture: null,
          transfer_number: null,
          call_window: null,
          phone_group_id: null,
          numbers: [],
          created_at: ISO,
          ...voiceDefaults,
        },
        {
          id: ava.id,
          name: 'Ava',
          profile_picture: null,
          transfer_number: '18005550100',
          call_window: { start: '09:00', end: '17:00', days: ['mon', 'tue'] },
          phone_group_id: group.id,
          numbers: expect.arrayContaining([n1, n2]),
          created_at: ISO,
          ...voiceDefaults,
        },
      ],
      next_cursor: null,
    });
    expect(agents.body.agents[2].numbers).toHaveLength(2);

    const numbers = await app.request('GET', '/v1/phone-numbers', { key: ws.apiKey });
    expect(numbers.status).toBe(200);
    const byNumber = Object.fromEntries(numbers.body.phone_numbers.map((p: { number: string }) => [p.number, p]));
    expect(Object.keys(byNumber).sort()).toEqual([n1, n2, n3, loose].sort());
    expect(byNumber[n1]).toEqual({ id: expect.any(String), number: n1, agent_id: ava.id, phone_group_id: group.id, created_at: ISO });
    expect(byNumber[n3]).toMatchObject({ agent_id: cy.id, phone_group_id: eastGroup.id });
    expect(byNumber[loose]).toMatchObject({ agent_id: null, phone_group_id: null });
    expect(numbers.body.next_cursor).toBeNull();

    const one = await app.request('GET', `/v1/agents/${ava.id}`, { key: ws.apiKey });
    expect(one.body).toEqual({ status: 'success', agent: agents.body.agents[2] });
  });

  it('pages through every agent and number exactly once', async () => {
    const ws = await app.newWorkspace();
    const phones = Array.from({ length: 7 }, () => uniquePhone());
    for (const [i, phone] of phones.entries()) {
      const group = await createPhoneGroup(app.db, ws.workspaceId, { name: `g${i}`, numbers: [phone] });
      await createAgent(app.db, ws.workspaceId, { name: `Agent ${i}`, phoneGroupId: group.id });
    }
    // Same creation instant for several rows: the id breaks the tie, so no row is skipped or repeated.
    await app.db.query("UPDATE agents SET created_at = '2026-01-01T00:00:00Z' WHERE workspace_id = $1 AND name IN ('Agent 1', 'Agent 2', 'Agent 3')", [
      ws.workspaceId,
    ]);
    await app.db.query('UPDATE phone_numbers SET created_at = $2 WHERE workspace_id = $1 AND phone = ANY($3)', [
      ws.workspaceId,
      '2026-01-01T00:00:00Z',
      phones.slice(2, 6),
    ]);
    for (const limit of [1, 2, 3, 7]) {
      const agents = await allPages(ws.apiKey, '/v1/agents', 'agents', limit);
      expect(agents).toHaveLength(7);
      expect(new Set(agents.map((a) => a.id)).size).toBe(7);
      const numbers = (await allPages(ws.apiKey, '/v1/phone-numbers', 'phone_numbers', limit)) as unknown as { number: string }[];
      expect(numbers.map((n) => n.number).sort()).toEqual([...phones].sort());
    }
  });

  it('misses and repeats no number while numbers are added between pages', async () => {
    const ws = await app.newWorkspace();
    const before = Array.from({ length: 6 }, () => uniquePhone());
    for (const number of before) expect((await app.request('POST', '/v1/phone-numbers', { key: ws.apiKey, body: { number } })).status).toBe(200);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await app.request('GET', `/v1/phone-numbers?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: ws.apiKey });
      seen.push(...res.body.phone_numbers.map((p: { number: string }) => p.number));
      cursor = res.body.next_cursor;
      await app.request('POST', '/v1/phone-numbers', { key: ws.apiKey, body: { number: uniquePhone() } });
    } while (cursor);
    expect(seen.filter((n) => before.includes(n)).sort()).toEqual([...before].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it.each(['/v1/agents', '/v1/phone-numbers'])('answers 400 for a bad limit or cursor on %s', async (path) => {
    const ws = await app.newWorkspace();
    for (const [query, message] of [
      ['limit=0', 'limit: must be an integer from 1 to 200'],
      ['limit=201', 'limit: must be an integer from 1 to 200'],
      ['cursor=nope', 'cursor: invalid cursor'],
    ]) {
      const res = await app.request('GET', `${path}?${query}`, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'failed', message });
    }
  });

  it("answers 404 for another workspace's agent, an unknown id and a malformed id; lists nothing of another workspace", async () => {
    const ws = await app.newWorkspace();
    const other = await app.newWorkspace();
    const theirs = await createAgent(app.db, other.workspaceId, { name: 'Theirs' });
    for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
      const res = await app.request('GET', `/v1/agents/${id}`, { key: ws.apiKey });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'failed', message: 'Agent not found' });
    }
    expect((await app.request('GET', '/v1/agents', { key: ws.apiKey })).body.agents).toEqual([]);
    expect((await app.request('GET', '/v1/phone-numbers', { key: ws.apiKey })).body.phone_numbers).toEqual([]);
    expect((await app.request('GET', `/v1/agents/${theirs.id}`, { key: other.apiKey })).status).toBe(200);
  });

  it('needs an API key', async () => {
    for (const path of ['/v1/agents', '/v1/phone-numbers', `/v1/agents/${randomUUID()}`]) {
      expect((await app.request('GET', path)).status).toBe(401);
    }
  });
});
