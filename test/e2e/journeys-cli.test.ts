import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoJourneySteps } from '../../src/cli/demo';
import { createDb } from '../../src/db/pool';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { testEnv } from '../helpers/env';
import { runCli } from '../helpers/processes';

const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: testEnv('databaseUrl'), LOG_LEVEL: 'warn' });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb-journey-cli-'));
const file = (name: string, content: unknown) => {
  const p = path.join(tmp, name);
  writeFileSync(p, JSON.stringify(content));
  return p;
};

describe('switchboard journey import', () => {
  const db = createDb(testEnv('databaseUrl'), { max: 1 });
  afterAll(() => db.close());

  it('stores a valid journey and adds a version on re-import of the same id', async () => {
    const ws = await createWorkspace(db, { name: 'cli journeys' });
    const first = await runCli(['journey', 'import', '--workspace', ws.id, file('demo.json', { name: 'Demo', steps: demoJourneySteps })], env());
    expect(first.code).toBe(0);
    const { id, version } = JSON.parse(first.stdout);
    expect(version).toBe(1);
    const again = await runCli(['journey', 'import', '--workspace', ws.id, file('v2.json', { id, name: 'Demo', steps: [{ id: 'only', kind: 'end' }] })], env());
    expect(JSON.parse(again.stdout)).toEqual({ id, version: 2 });
    // Another workspace cannot add a version to it, nor rename it.
    const other = await createWorkspace(db, { name: 'cli journeys other' });
    const stolen = await runCli(
      ['journey', 'import', '--workspace', other.id, file('v3.json', { id, name: 'Mine', steps: [{ id: 'only', kind: 'end' }] })],
      env(),
    );
    expect([stolen.code, stolen.stderr]).toEqual([1, `error: journey ${id} belongs to another workspace\n`]);
    expect(await db.query('SELECT workspace_id, version FROM journey_versions WHERE journey_id = $1 ORDER BY version', [id])).toEqual([
      { workspace_id: ws.id, version: 1 },
      { workspace_id: ws.id, version: 2 },
    ]);
    expect(await db.query('SELECT name FROM journeys WHERE id = $1', [id])).toEqual([{ name: 'Demo' }]);
  });

  it('prints one readable line per problem and stores nothing', async () => {
    const ws = await createWorkspace(db, { name: 'cli journeys bad' });
    const bad = file('bad.json', {
      name: 'Broken',
      steps: [
        { id: 'a', kind: 'wait', duration: '10 minutes' },
        { id: 'b', kind: 'goto', target: 'nowhere' },
        { id: 'c', kind: 'telepathy' },
      ],
    });
    const res = await runCli(['journey', 'import', '--workspace', ws.id, bad], env());
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `error: ${bad} is not a valid journey:\n` +
        '  steps[0] (a).duration: an ISO-8601 duration such as PT10M, PT1S or P2D (no years or months)\n' +
        '  steps[2] (c).kind: must be one of wait, tag, untag, update_lead, webhook, branch, goto, end, call, automation, trigger\n',
    );
    const graph = await runCli(
      [
        'journey',
        'import',
        '--workspace',
        ws.id,
        file('graph.json', {
          name: 'Loop',
          steps: [
            { id: 'a', kind: 'goto', target: 'b' },
            { id: 'b', kind: 'goto', target: 'a' },
          ],
        }),
      ],
      env(),
    );
    expect(graph.stderr).toMatch(/loop without a wait: a → b → a/);
    const badId = await runCli(['journey', 'import', '--workspace', ws.id, file('id.json', { id: 'x', name: 'X', steps: demoJourneySteps })], env());
    expect(badId.stderr).toMatch(/journey "id" must be a UUID/);
    expect(await db.query('SELECT 1 FROM journeys WHERE workspace_id = $1', [ws.id])).toHaveLength(0);
  });

  it('rejects what the REST API rejects: a tag over 64 characters and a field name no lead field can have', async () => {
    const ws = await createWorkspace(db, { name: 'cli journeys rules' });
    const bad = file('rules.json', {
      name: 'Rules',
      steps: [
        { id: 'a', kind: 'tag', tag: 't'.repeat(65) },
        { id: 'b', kind: 'update_lead', fields: { Company: 'Acme' } },
        { id: 'c', kind: 'end' },
      ],
    });
    const res = await runCli(['journey', 'import', '--workspace', ws.id, bad], env());
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `error: ${bad} is not a valid journey:\n` +
        '  steps[0] (a).tag: letters, digits and underscores only, 1–64 characters\n' +
        '  steps[1] (b).fields.Company: lowercase letters, digits and underscores, starting with a letter, 1–64 characters\n',
    );
    expect(await db.query('SELECT 1 FROM journeys WHERE workspace_id = $1', [ws.id])).toHaveLength(0);
  });
});
