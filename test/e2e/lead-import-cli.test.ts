import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leadImportWorkflowId } from '../../src/temporal/ids';
import { repoRoot } from '../helpers/env';
import { runCli } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true, config: { LEAD_IMPORT_CHUNK_ROWS: '25', TEMPORAL_UI_URL: 'https://temporal.example.test' } });
});
afterAll(() => app.close());

const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'warn' });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb-import-'));
const csvFile = (name: string, rows: number, from: number) => {
  const file = path.join(tmp, name);
  writeFileSync(file, ['phone,first_name', ...Array.from({ length: rows }, (_, i) => `1510${2_000_000 + from + i},R${i}`)].join('\n'));
  return file;
};

describe('switchboard leads import', () => {
  it("uploads a file, prints its run's link, follows it to the end and prints the import; --watch attaches to it later", async () => {
    const ws = await app.newWorkspace();
    const res = await runCli(
      ['leads', 'import', csvFile('a.csv', 120, 0), '--tag', 'cli', '--on-conflict', 'update', '--url', app.url, '--api-key', ws.apiKey],
      env(),
    );
    const { workflow_url: link, ...view } = JSON.parse(res.stdout);
    const run = `https://temporal.example.test/namespaces/${app.config.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(leadImportWorkflowId(view.import_id))}`;
    expect([res.code, res.stderr, link]).toEqual([0, `run: ${run}\n`, run]);
    expect(view).toMatchObject({
      status: 'completed',
      tag: 'cli',
      on_conflict: 'update',
      rows: { total: 120, read: 120, created: 120, updated: 0, skipped: 0, failed: 0 },
    });
    const watched = await runCli(['leads', 'import', '--watch', view.import_id, '--url', app.url], { ...env(), SWITCHBOARD_API_KEY: ws.apiKey });
    expect(watched.code).toBe(0);
    expect(JSON.parse(watched.stdout)).toEqual(view);
    expect(await app.db.one('SELECT count(*)::int AS n FROM leads WHERE workspace_id = $1 AND tags = $2', [ws.workspaceId, ['cli']])).toEqual({ n: 120 });
  });

  it('shows a progress bar with rows, rows/s and ETA on a terminal', async () => {
    const ws = await app.newWorkspace();
    const args = ['leads', 'import', csvFile('b.csv', 200, 1000), '--url', app.url, '--api-key', ws.apiKey];
    const command = [process.execPath, path.join(repoRoot, 'bin', 'switchboard.js'), ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: env() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(output).toMatch(/import .* \d+% \| \d+\/200 rows \| \d+ rows\/s \| ETA /);
    expect(output).toMatch(/200\/200 rows/);
  });

  it('asks for a file or --watch, and for an API key (exit 64)', async () => {
    for (const args of [
      ['leads', 'import', '--api-key', 'k'],
      ['leads', 'import', 'x.csv', '--watch', 'id', '--api-key', 'k'],
      ['leads', 'import', 'x.csv'],
    ]) {
      const res = await runCli(args, env());
      expect([args, res.code]).toEqual([args, 64]);
      expect(res.stderr).toMatch(/^error: (give a file to import, or --watch <id>|--api-key or SWITCHBOARD_API_KEY)/);
    }
  });
});
