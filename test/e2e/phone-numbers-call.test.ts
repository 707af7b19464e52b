import { callResult, phoneEnding, zoneInDaytime } from '../helpers/calls';
import { uniquePhone } from '../helpers/phones';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: { speed: 20 } });
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(120_000);

describe('a `from` taken from GET /v1/phone-numbers', () => {
  it("places a call with POST /v1/agent, for a number of the agent and for a detached one; another workspace's is refused", async () => {
    const ws = await app.newWorkspace();
    const other = await app.newWorkspace();
    await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, zoneInDaytime()]);
    const agent = (await app.request('POST', '/v1/agents', { key: ws.apiKey, body: { name: 'Ava', numbers: [uniquePhone()] } })).body.agent;
    await app.request('POST', '/v1/phone-numbers', { key: ws.apiKey, body: { number: uniquePhone() } });
    await app.request('POST', '/v1/phone-numbers', { key: other.apiKey, body: { number: uniquePhone() } });

    const listed = (await app.request('GET', '/v1/phone-numbers', { key: ws.apiKey })).body.phone_numbers as { number: string; agent_id: string | null }[];
    expect(listed.map((p) => p.agent_id).sort()).toEqual([agent.id, null].sort());
    for (const { number } of listed) {
      const res = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: agent.id, phone: phoneEnding('0002'), from: number } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: number, agent: agent.id });
      expect((await callResult(app, res.body.call_id)).outcome).toBe('voicemail');
    }

    const theirs = (await app.request('GET', '/v1/phone-numbers', { key: other.apiKey })).body.phone_numbers[0].number;
    const refused = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: agent.id, phone: phoneEnding('0002'), from: theirs } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/from/);
  });
});
