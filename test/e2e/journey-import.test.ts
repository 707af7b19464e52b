import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testEnv } from '../helpers/env';
import { runCli } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(() => app.close());
jest.setTimeout(90_000);

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
const V1 = [
  { id: 'wait', kind: 'wait', duration: 'PT1H' },
  { id: 'end', kind: 'end' },
];
const V2 = [
  { id: 'vip', kind: 'tag', tag: 'vip' },
  { id: 'end', kind: 'end' },
];
const post = (ws: Ws, body: unknown, headers?: Record<string, string>) => app.request('POST', '/v1/journeys', { key: ws.apiKey, body, headers });
const journeysOf = async (ws: Ws) => (await app.db.query('SELECT id FROM journeys WHERE workspace_id = $1', [ws.workspaceId])).length;
const BROKEN = [
  { id: 'a', kind: 'wait', duration: '10 minutes' },
  { id: 'b', kind: 'goto', target: 'nowhere' },
  { id: 'c', kind: 'telepathy' },
];
const BROKEN_ISSUES = [
  'steps[0] (a).duration: an ISO-8601 duration such as PT10M, PT1S or P2D (no years or months)',
  'steps[2] (c).kind: must be one of wait, tag, untag, update_lead, webhook, branch, goto, end, call, automation, trigger',
];

describe('POST /v1/journeys', () => {
  it('imports a new journey, then new versions of it; GET shows the newest', async () => {
    const ws = await app.newWorkspace();
    const first = await post(ws, { name: 'Onboarding', steps: V1 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'success', id: expect.any(String), version: 1 });
    const second = await post(ws, { id: first.body.id, name: 'Onboarding 2', steps: V2 });
    expect(second.body).toEqual({ status: 'success', id: first.body.id, version: 2 });
    const shown = await app.request('GET', `/v1/journeys/${first.body.id}`, { key: ws.apiKey });
    expect(shown.body.journey).toMatchObject({ name: 'Onboarding 2', current_version: 2, steps: V2 });

    const chosen = randomUUID();
    expect((await post(ws, { id: chosen.toUpperCase(), name: 'Chosen id', steps: V1 })).body).toEqual({ status: 'success', id: chosen, version: 1 });
  });

  it.each([
    ['a body that is not an object', [1], 'a journey is a JSON object {id?, name, steps}'],
    ['an unknown field', { name: 'X', steps: V1, owner: 'me' }, 'unknown field "owner": a journey has only id, name and steps'],
    ['no name', { steps: V1 }, 'a journey needs "name" and "steps"'],
    ['no steps', { name: 'X' }, 'a journey needs "name" and "steps"'],
    ['a name that is not a string', { name: 5, steps: V1 }, 'journey "name" must be a string of 1–200 characters without NUL characters'],
    ['a name with NUL', { name: 'a\u0000b', steps: V1 }, 'name: must not contain NUL characters or unpaired surrogates'],
    ['an id that is not a UUID', { id: 'x', name: 'X', steps: V1 }, 'journey "id" must be a UUID'],
    [
      'steps with NUL',
      {
        name: 'X',
        steps: [
          { id: 't', kind: 'tag', tag: 'a\u0000' },
          { id: 'end', kind: 'end' },
        ],
      },
      // Every route's request text passes the storable-text rule first (src/http/validation.ts), naming the field.
      'steps.0.tag: must not contain NUL characters or unpaired surrogates',
    ],
    ['no steps at all', { name: 'X', steps: [] }, 'invalid journey: steps: a journey needs at least one step'],
    ['bad steps', { name: 'X', steps: BROKEN }, `invalid journey: ${BROKEN_ISSUES.join('; ')}`],
    [
      'a loop without a wait',
      {
        name: 'X',
        steps: [
          { id: 'a', kind: 'goto', target: 'b' },
          { id: 'b', kind: 'goto', target: 'a' },
        ],
      },
      expect.stringMatching(/^invalid journey: .*loop without a wait: a → b → a/),
    ],
  ])('answers 400 for %s and stores nothing', async (_, body, message) => {
    const ws = await app.newWorkspace();
    const res = await post(ws, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'failed', message });
    expect(await journeysOf(ws)).toBe(0);
  });

  it('refuses what the CLI refuses, with the same problems', async () => {
    const ws = await app.newWorkspace();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'journey-import-')), 'broken.json');
    writeFileSync(file, JSON.stringify({ name: 'Broken', steps: BROKEN }));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: testEnv('databaseUrl'), LOG_LEVEL: 'warn' };
    const cli = await runCli(['journey', 'import', '--workspace', ws.workspaceId, file], env);
    expect(cli.stderr).toBe(`error: ${file} is not a valid journey:\n  ${BROKEN_ISSUES.join('\n  ')}\n`);
    const api = await post(ws, { name: 'Broken', steps: BROKEN });
    expect(api.body.message).toBe(`invalid journey: ${BROKEN_ISSUES.join('; ')}`);
  });

  it("answers 404 for another workspace's journey id and changes nothing of it", async () => {
    const [ws, other] = [await app.newWorkspace(), await app.newWorkspace()];
    const theirs = await post(other, { name: 'Theirs', steps: V1 });
    const res = await post(ws, { id: theirs.body.id, name: 'Mine', steps: V2 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'failed', message: 'Journey not found' });
    expect(
      await app.db.query('SELECT j.name, j.workspace_id, v.version FROM journeys j JOIN journey_versions v ON v.journey_id = j.id WHERE j.id = $1', [
        theirs.body.id,
      ]),
    ).toEqual([{ name: 'Theirs', workspace_id: other.workspaceId, version: 1 }]);
    expect(await journeysOf(ws)).toBe(0);
  });

  it('stores one version for a retried request with the same Idempotency-Key, and distinct versions for concurrent imports', async () => {
    const ws = await app.newWorkspace();
    const { id } = (await post(ws, { name: 'J', steps: V1 })).body;
    const body = { id, name: 'J', steps: V2 };
    const first = await post(ws, body, { 'idempotency-key': 'import-1' });
    const again = await post(ws, body, { 'idempotency-key': 'import-1' });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.body.version).toBe(2);

    const concurrent = await Promise.all(Array.from({ length: 5 }, () => post(ws, body)));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(concurrent.map((r) => r.body.version).sort()).toEqual([3, 4, 5, 6, 7]);
  });
});
