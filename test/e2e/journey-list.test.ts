import { randomUUID } from 'node:crypto';
import { importJourney } from '../../src/journeys/db/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(60_000);

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const V1 = [
  { id: 'wait', kind: 'wait', duration: 'PT1H' },
  { id: 'end', kind: 'end' },
];
const V2 = [
  { id: 'vip', kind: 'tag', tag: 'vip' },
  { id: 'wait', kind: 'wait', duration: 'P1D' },
  { id: 'end', kind: 'end' },
];

/** Enrollment rows in a given state, written directly: the listing only counts them. */
async function enrollments(ws: Ws, journeyId: string, statuses: string[]) {
  for (const [i, status] of statuses.entries()) {
    const lead = randomUUID();
    await app.db.query('INSERT INTO leads (id, workspace_id, phone) VALUES ($1, $2, $3)', [lead, ws.workspaceId, String(17145556000 + i)]);
    await app.db.query(
      `INSERT INTO enrollments (id, workspace_id, journey_id, journey_version, lead_id, workflow_id, status) VALUES ($1, $2, $3, 1, $4, $5, $6)`,
      [randomUUID(), ws.workspaceId, journeyId, lead, `wf-${lead}`, status],
    );
  }
}

describe('GET /v1/journeys', () => {
  it("lists the workspace's journeys newest first with version, dates and active enrollments, a page at a time", async () => {
    const ws = await app.newWorkspace();
    const a = await importJourney(app.db, ws.workspaceId, { name: 'Onboarding', steps: V1 });
    await importJourney(app.db, ws.workspaceId, { id: a.id, name: 'Onboarding', steps: V2 });
    const b = await importJourney(app.db, ws.workspaceId, { name: 'Win-back', steps: V1 });
    const c = await importJourney(app.db, ws.workspaceId, { name: 'Renewal', steps: V1 });
    await enrollments(ws, a.id, ['active', 'active', 'completed', 'unenrolled']);
    const other = await app.newWorkspace();
    await importJourney(app.db, other.workspaceId, { name: 'Theirs', steps: V1 });

    const all = await app.request('GET', '/v1/journeys', { key: ws.apiKey });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      status: 'success',
      journeys: [
        { id: c.id, name: 'Renewal', current_version: 1, created_at: ISO, updated_at: ISO, active_enrollments: 0 },
        { id: b.id, name: 'Win-back', current_version: 1, created_at: ISO, updated_at: ISO, active_enrollments: 0 },
        { id: a.id, name: 'Onboarding', current_version: 2, created_at: ISO, updated_at: ISO, active_enrollments: 2 },
      ],
      next_cursor: null,
    });
    const onboarding = all.body.journeys[2];
    expect(Date.parse(onboarding.updated_at)).toBeGreaterThanOrEqual(Date.parse(onboarding.created_at));

    const first = await app.request('GET', '/v1/journeys?limit=2', { key: ws.apiKey });
    expect(first.body.journeys.map((j: { id: string }) => j.id)).toEqual([c.id, b.id]);
    const second = await app.request('GET', `/v1/journeys?limit=2&cursor=${first.body.next_cursor}`, { key: ws.apiKey });
    expect(second.body.journeys.map((j: { id: string }) => j.id)).toEqual([a.id]);
    expect(second.body.next_cursor).toBeNull();
  });

  it.each([
    ['limit=0', 'limit: must be an integer from 1 to 200'],
    ['limit=500', 'limit: must be an integer from 1 to 200'],
    ['cursor=nope', 'cursor: invalid cursor'],
  ])('answers 400 for %s', async (query, message) => {
    const ws = await app.newWorkspace();
    const res = await app.request('GET', `/v1/journeys?${query}`, { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'failed', message });
  });
});

describe('GET /v1/journeys/{id}', () => {
  it('shows the current steps and every version', async () => {
    const ws = await app.newWorkspace();
    const j = await importJourney(app.db, ws.workspaceId, { name: 'Onboarding', steps: V1 });
    await importJourney(app.db, ws.workspaceId, { id: j.id, name: 'Onboarding', steps: V2 });
    await enrollments(ws, j.id, ['active']);
    const res = await app.request('GET', `/v1/journeys/${j.id}`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      journey: {
        id: j.id,
        name: 'Onboarding',
        current_version: 2,
        created_at: ISO,
        updated_at: ISO,
        active_enrollments: 1,
        steps: V2,
        versions: [
          { version: 2, created_at: ISO, steps: 3 },
          { version: 1, created_at: ISO, steps: 2 },
        ],
      },
    });
  });

  it("answers 404 for another workspace's journey, an unknown id and a malformed id", async () => {
    const ws = await app.newWorkspace();
    const other = await app.newWorkspace();
    const theirs = await importJourney(app.db, other.workspaceId, { name: 'Theirs', steps: V1 });
    for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
      const res = await app.request('GET', `/v1/journeys/${id}`, { key: ws.apiKey });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'failed', message: 'Journey not found' });
    }
    expect((await app.request('GET', `/v1/journeys/${theirs.id}`, { key: other.apiKey })).status).toBe(200);
  });

  it('leaves GET /v1/journeys/webhook-secret to its own route', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    const res = await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey });
    expect(res.status).toBe(200);
    expect(res.body.journey).toBeUndefined();
  });
});
