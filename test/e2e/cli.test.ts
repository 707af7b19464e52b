import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createDb } from '../../src/db/pool';
import { verifyPassword } from '../../src/workspaces/db/users';
import { repoRoot, testEnv } from '../helpers/env';
import { uniquePhone } from '../helpers/phones';
import { runCli } from '../helpers/processes';
import { UUID_PATTERN } from '../../src/core/ids';

const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: testEnv('databaseUrl'), LOG_LEVEL: 'warn' });
const withInput = async (input: string, ...args: string[]) => {
  const res = await runCli(args, env(), input);
  return { ...res, json: res.code === 0 && res.stdout.trim() ? JSON.parse(res.stdout) : undefined };
};
const cli = (...args: string[]) => withInput('', ...args);

/** Runs the CLI on a pseudo-terminal (util-linux `script`), typing each answer once its prompt shows. */
function onTerminal(args: string[], answers: [prompt: string, typed: string][]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, path.join(repoRoot, 'bin', 'switchboard.js'), ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: env() });
  let output = '';
  let from = 0;
  const pending = [...answers];
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    for (let at; pending[0] && (at = output.indexOf(pending[0][0], from)) >= 0;) {
      from = at + pending[0][0].length;
      child.stdin.write(pending.shift()![1]);
    }
  });
  const timer = setTimeout(() => child.kill(), 30_000);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(timer), resolve({ code, output }))));
}

describe('the admin CLI', () => {
  const db = createDb(testEnv('databaseUrl'), { max: 1 });
  afterAll(() => db.close());
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb-cli-'));

  it('creates a workspace, manages its API keys and shows each key once', async () => {
    const ws = await cli('workspace', 'create', '--name', 'Acme', '--region', 'GB', '--timezone', 'Europe/London');
    expect(ws.code).toBe(0);
    expect(ws.json).toMatchObject({ name: 'Acme', default_region: 'GB', timezone: 'Europe/London' });
    const workspace = ws.json.workspace_id as string;

    const created = await cli('api-key', 'create', '--workspace', workspace, '--name', 'ci');
    expect(created.json).toMatchObject({ prefix: expect.stringMatching(/^sbk_/), superuser: false, api_key: expect.stringMatching(/^sbk_[A-Za-z0-9_-]{43}$/) });
    const listed = await cli('api-key', 'list', '--workspace', workspace);
    expect(listed.json).toHaveLength(1);
    expect(listed.stdout).not.toContain(created.json.api_key);
    expect(listed.json[0]).toMatchObject({ prefix: created.json.prefix, revoked_at: null });

    expect(listed.json[0]).toMatchObject({ scopes: ['rest', 'integrations'] });
    const scoped = await cli('api-key', 'create', '--workspace', workspace, '--name', 'crm', '--scopes', 'rest');
    expect(scoped.json).toMatchObject({ scopes: ['rest'], superuser: false });
    expect((await cli('api-key', 'list', '--workspace', workspace)).json[1]).toMatchObject({ prefix: scoped.json.prefix, scopes: ['rest'] });
    const badScope = await cli('api-key', 'create', '--workspace', workspace, '--scopes', 'rest,admin');
    expect(badScope.code).toBe(64);
    expect(badScope.stderr).toMatch(/--scopes: one or more of rest, integrations/);
    expect((await cli('api-key', 'revoke', '--workspace', workspace, scoped.json.prefix)).code).toBe(0);

    expect((await cli('api-key', 'revoke', '--workspace', workspace, created.json.prefix)).code).toBe(0);
    const after = await cli('api-key', 'list', '--workspace', workspace);
    expect(after.json[0].revoked_at).not.toBeNull();
    const again = await cli('api-key', 'revoke', '--workspace', workspace, created.json.prefix);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no live key/);
  });

  it('creates users with a scrypt hash, agents with a phone group, journeys and flows', async () => {
    const workspace = (await cli('workspace', 'create', '--name', 'Beta')).json.workspace_id as string;
    const tag = workspace.slice(0, 8);
    const user = await withInput('s3cret-pass\n', 'user', 'create', '--workspace', workspace, '--email', `Ops-${tag}@Example.com`, '--password-stdin');
    expect(user.json).toMatchObject({ email: `ops-${tag}@example.com` });
    const [row] = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.json.user_id]);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('s3cret-pass');
    expect(await verifyPassword('s3cret-pass', row!.password_hash)).toBe(true);

    // A number belongs to one workspace in the whole database (kept between runs): fresh numbers every run.
    const [n1, n2] = [uniquePhone(), uniquePhone()];
    const agent = await cli(
      'agent',
      'create',
      '--workspace',
      workspace,
      '--name',
      'Max',
      '--picture',
      'https://x.test/max.png',
      '--transfer-number',
      '+1 (714) 555-1234',
      '--phone-group',
      'West',
      '--numbers',
      `${n1.slice(1, 4)}-${n1.slice(4, 7)}-${n1.slice(7)},+${n2}`,
    );
    expect(agent.code).toBe(0);
    expect(agent.json.numbers).toEqual([n1, n2]);
    const [a] = await db.query<{ transfer_number: string; phone_group_id: string }>('SELECT * FROM agents WHERE id = $1', [agent.json.agent_id]);
    expect(a).toMatchObject({ transfer_number: '17145551234', phone_group_id: agent.json.phone_group_id });

    const bad = await cli('agent', 'create', '--workspace', workspace, '--name', 'X', '--numbers', '12');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--numbers: 12 is not a valid phone number/);

    const flowFile = path.join(tmp, 'flow.json');
    const graph = {
      nodes: [
        { id: 'a', type: 'start', next: 'b' },
        { id: 'b', type: 'message', text: 'Hi', next: 'c' },
        { id: 'c', type: 'end' },
      ],
    };
    writeFileSync(flowFile, JSON.stringify({ name: 'Support', public_chat: true, allowed_origins: ['https://shop.example'], owner: { name: 'Ava' }, graph }));
    const flow = await cli('flow', 'import', '--workspace', workspace, flowFile);
    expect(flow.json).toEqual({ id: expect.stringMatching(UUID_PATTERN) });
    const badFile = path.join(tmp, 'bad-flow.json');
    const badGraph = {
      nodes: [
        { id: 'a', type: 'start', next: 'q' },
        { id: 'q', type: 'question', text: 'Plan?', field: 'plan', validate: 'choice', next: 'x' },
      ],
    };
    writeFileSync(badFile, JSON.stringify({ name: 'Bad', owner: { name: 'Ava' }, graph: badGraph }));
    const badFlow = await cli('flow', 'import', '--workspace', workspace, badFile);
    expect(badFlow.code).toBe(1);
    expect(badFlow.stderr).toContain('invalid flow graph');
    expect(badFlow.stderr).toContain('the graph needs an end node');
    expect(badFlow.stderr).toContain('node "q": edge to unknown node "x"');
    expect(badFlow.stderr).toContain('node "q": validate "choice" needs "choices"');
    const [stored] = await db.query<{ n: string }>('SELECT count(*) AS n FROM flows WHERE workspace_id = $1', [workspace]);
    expect(Number(stored!.n)).toBe(1);
  });

  describe('user create: the password never on the command line', () => {
    let workspace: string;
    beforeAll(async () => {
      workspace = (await cli('workspace', 'create', '--name', 'Gamma')).json.workspace_id as string;
    });
    const email = () => `u-${Math.random().toString(36).slice(2)}@example.com`;
    const hashOf = async (address: string) =>
      (await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [address]))[0]?.password_hash;

    it('prompts twice on a terminal without echoing what is typed', async () => {
      const address = email();
      const res = await onTerminal(
        ['user', 'create', '--workspace', workspace, '--email', address],
        [
          ['Password: ', 'typed-Secret-1\r'],
          ['Repeat password: ', 'typed-Secret-1\r'],
        ],
      );
      expect(res.code).toBe(0);
      expect(res.output).toContain(address);
      expect(res.output).not.toContain('typed-Secret-1');
      expect(await verifyPassword('typed-Secret-1', (await hashOf(address))!)).toBe(true);
    });

    it('takes both answers pasted at once', async () => {
      const address = email();
      const res = await onTerminal(['user', 'create', '--workspace', workspace, '--email', address], [['Password: ', 'pasted-Secret\rpasted-Secret\r']]);
      expect(res.code).toBe(0);
      expect(res.output).not.toContain('pasted-Secret');
      expect(await verifyPassword('pasted-Secret', (await hashOf(address))!)).toBe(true);
    });

    it('creates nobody when the two typed passwords differ', async () => {
      const address = email();
      const res = await onTerminal(
        ['user', 'create', '--workspace', workspace, '--email', address],
        [
          ['Password: ', 'one-Secret\r'],
          ['Repeat password: ', 'other-Secret\r'],
        ],
      );
      expect(res.code).toBe(1);
      expect(res.output).toMatch(/the passwords did not match/);
      expect(await hashOf(address)).toBeUndefined();
    });

    it('without a terminal, asks for --password-stdin and creates nobody', async () => {
      const address = email();
      const res = await cli('user', 'create', '--workspace', workspace, '--email', address);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/--password-stdin/);
      expect(await hashOf(address)).toBeUndefined();
      const empty = await withInput('', 'user', 'create', '--workspace', workspace, '--email', address, '--password-stdin');
      expect(empty.code).toBe(1);
      expect(empty.stderr).toMatch(/stdin was empty/);
      expect(await hashOf(address)).toBeUndefined();
    });

    it('still takes --password, with a warning', async () => {
      const address = email();
      const res = await cli('user', 'create', '--workspace', workspace, '--email', address, '--password', 'flag-Secret');
      expect(res.code).toBe(0);
      expect(res.stderr).toMatch(/warning: --password leaves the password in shell history/);
      expect(await verifyPassword('flag-Secret', (await hashOf(address))!)).toBe(true);
      const both = await withInput('x\n', 'user', 'create', '--workspace', workspace, '--email', email(), '--password', 'p', '--password-stdin');
      expect(both.code).toBe(64);
    });
  });

  it('answers unknown commands and missing options with a hint and a non-zero exit', async () => {
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'\n\(run `switchboard help` for the commands\)/);
    const missing = await cli('workspace', 'create');
    expect(missing.code).toBe(64);
    expect(missing.stderr).toMatch(/required option '--name <name>' not specified/);
    const noWorkspace = await cli('api-key', 'list', '--workspace', '00000000-0000-0000-0000-000000000000');
    expect(noWorkspace.code).toBe(1);
    expect(noWorkspace.stderr).toMatch(/workspace .* not found/);
  });

  it('makes a new, separate workspace on every demo run', async () => {
    const [a, b] = [await cli('demo', '--json'), await cli('demo', '--json')];
    expect(a.json.workspace_id).not.toBe(b.json.workspace_id);
    expect(a.json.api_key).not.toBe(b.json.api_key);
    const counts = await db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM agents WHERE workspace_id = $1) + (SELECT count(*) FROM journeys WHERE workspace_id = $1)
        + (SELECT count(*) FROM flows WHERE workspace_id = $1) + (SELECT count(*) FROM users WHERE workspace_id = $1)
        + (SELECT count(*) FROM api_keys WHERE workspace_id = $1) + (SELECT count(*) FROM phone_groups WHERE workspace_id = $1) AS n`,
      [a.json.workspace_id],
    );
    expect(Number(counts[0]!.n)).toBe(7);
  });
});
