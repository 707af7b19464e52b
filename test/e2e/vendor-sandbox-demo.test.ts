import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createConnection } from '../../src/connections/store';
import { startVendorSandbox, type VendorSandbox } from '../../src/sandbox/server';
import { SANDBOX_TOKEN } from '../../src/sandbox/vendor';
import { repoRoot, testEnv } from '../helpers/env';
import { runCli } from '../helpers/processes';
import { vendorProblems } from '../helpers/sandbox-ledger';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(180_000);

interface Curl {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: any;
}

/** The curl commands of the README's example block for /api/automation/execute (quotes and line continuations as sh reads them). */
function readmeCurls(): Curl[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('/api/automation/execute'));
  if (!block) throw new Error('README has no sh block with /api/automation/execute');
  const commands = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.startsWith('curl '));
  return commands.map((line) => {
    const words = [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
    const curl: Curl = { method: 'GET', url: '', headers: {}, body: undefined };
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!;
      if (w === '-X') curl.method = words[++i]!;
      else if (w === '-H') {
        const [name, ...value] = words[++i]!.split(':');
        curl.headers[name!.trim().toLowerCase()] = value.join(':').trim();
      } else if (w === '-d') curl.body = JSON.parse(words[++i]!);
      else curl.url = w;
    }
    return curl;
  });
}

let sandbox: VendorSandbox;
let app: TestApp;
beforeAll(async () => {
  sandbox = await startVendorSandbox();
  // No SSRF_ALLOWLIST: the sandbox is reached as the one endpoint the guard lets through.
  app = await startTestApp({ workers: true, config: { VENDOR_SANDBOX_URL: sandbox.url } });
});
afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

const execute = (key: string, body: unknown) => app.request('POST', '/api/automation/execute', { headers: { 'x-key': key }, body });

test("the README's automation examples succeed against a demo made by the CLI, and reach the sandbox as the vendors' requests", async () => {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: testEnv('databaseUrl'), VENDOR_SANDBOX_URL: sandbox.url, LOG_LEVEL: 'warn' };
  const res = await runCli(['demo', '--json'], env);
  expect(res.code).toBe(0);
  const demo = JSON.parse(res.stdout);
  expect(demo.vendor_sandbox_url).toBe(sandbox.url);

  const curls = readmeCurls();
  expect(curls.map((c) => c.body.automationType)).toEqual(['slack', 'hubspot', 'google_calendar']);
  const before = sandbox.ledger.entries.length;
  for (const curl of curls) {
    expect(curl.url).toBe('http://127.0.0.1:3000/api/automation/execute');
    const headers = { ...curl.headers, 'x-key': curl.headers['x-key']!.replace('<superuser_key>', demo.superuser_key) };
    const answer = await fetch(curl.url.replace('http://127.0.0.1:3000', app.url), { method: curl.method, headers, body: JSON.stringify(curl.body) });
    const envelope = (await answer.json()) as any;
    expect({ status: answer.status, success: envelope.success, error: envelope.error }).toEqual({ status: 200, success: true, error: null });
  }

  const entries = sandbox.ledger.entries.slice(before);
  expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
    'POST /slack/api/chat.postMessage 200',
    'POST /hubspot/crm/v3/objects/contacts 201',
    'POST /google_calendar/calendar/v3/freeBusy 200',
    'POST /google_calendar/calendar/v3/calendars/primary/events 200',
  ]);
  const [slack, hubspot, , event] = entries;
  expect(slack).toMatchObject({ body: curls[0]!.body.nodeParams.params, response: { ok: true } });
  expect(hubspot!.body).toMatchObject({ properties: curls[1]!.body.nodeParams.params });
  expect(event!.body).toMatchObject({ summary: 'Demo call', start: { dateTime: '2030-01-07T15:00:00.000Z' } });
  for (const entry of entries) expect(vendorProblems(entry)).toEqual([]);
  // The ledger over HTTP shows the same, credentials redacted.
  const ledger = (await (await fetch(`${sandbox.url}/ledger`)).json()) as { requests: unknown[] };
  expect(ledger.requests).toHaveLength(sandbox.ledger.entries.length);
  expect(JSON.stringify(ledger)).not.toContain(SANDBOX_TOKEN);
});

test('"not connected" names the command that connects; a connection elsewhere on loopback is still refused', async () => {
  const ws = await app.newWorkspace({ superuser: true });
  const body = { automationType: 'slack', nodeParams: { action: 'post_message', params: { channel: 'C1', text: 'x' } } };
  const missing = await execute(ws.superuserKey, body);
  expect(missing.body).toMatchObject({
    success: false,
    error: `Slack is not connected for this workspace: connect it first (npx switchboard connection create --workspace ${ws.workspaceId} --integration slack --kind oauth2 --secret access_token=…)`,
  });

  const before = sandbox.ledger.entries.length;
  const elsewhere = `http://127.0.0.1:${testEnv('temporalAddress').split(':')[1]}/slack/api`;
  await createConnection(app.db, {
    workspaceId: ws.workspaceId,
    userId: null,
    integration: 'slack',
    kind: 'api_key',
    secrets: { api_key: SANDBOX_TOKEN },
    settings: { base_url: elsewhere },
  });
  const refused = await execute(ws.superuserKey, body);
  expect(refused.body).toMatchObject({ success: false, metadata: { errorType: 'ssrf_blocked' } });
  expect(sandbox.ledger.entries.length).toBe(before);
});
