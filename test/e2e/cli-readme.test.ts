import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/env';
import { runCli } from '../helpers/processes';

// No database is reachable here: every answer below must come before the CLI touches one.
const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'warn' });
const cli = (...args: string[]) => runCli(args, env());
// The README and every page of docs/ (the Admin CLI block is in docs/cli.md).
const readme = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
  .map((f) => readFileSync(path.join(repoRoot, f), 'utf8'))
  .join('\n');

/** The Admin CLI block: each command (its words before the first flag) with the flags its synopsis names. */
function documentedCommands(): Map<string, Set<string>> {
  const block = /^# Admin CLI[\s\S]*?```\n([\s\S]*?)```/m.exec(readme)![1]!;
  const commands = new Map<string, Set<string>>();
  let last: Set<string> | undefined;
  for (const line of block.split('\n')) {
    // The synopsis is what precedes the description column (two or more spaces); continuation lines are indented a little.
    const synopsis = /^\S/.test(line) ? line.split(/\s{2,}/)[0]! : /^\s{1,12}[[-]/.test(line) ? line.split(/\s{2,}/)[1]! : '';
    if (/^\S/.test(line)) commands.set(/^[a-z][a-z -]*?(?= -| <| \[|$)/.exec(synopsis)![0].trim(), (last = new Set()));
    for (const flag of synopsis.match(/--[a-z][a-z-]*/g) ?? []) last?.add(flag);
  }
  return commands;
}

/** Every `switchboard <command> [<subcommand>]` the README names in its prose, alternatives (`a|b`) expanded. */
function namedInProse(): string[] {
  const out = new Set<string>();
  for (const m of readme.matchAll(/switchboard ([a-z][a-z|-]*)(?: ([a-z][a-z|-]*))?/g)) {
    for (const sub of (m[2] ?? '').split('|')) out.add(`${m[1]} ${sub}`.trim());
  }
  return [...out];
}

describe('every command the README names exists, with the flags it documents', () => {
  const documented = documentedCommands();

  it('finds the Admin CLI block and the commands named in prose', () => {
    expect(documented.size).toBeGreaterThan(15);
    expect([...documented.keys()]).toEqual(expect.arrayContaining(['secrets reseal', 'api-key create', 'demo', 'migrate']));
    expect(namedInProse()).toEqual(expect.arrayContaining(['secrets reseal', 'connection delete', 'demo']));
  });

  it.each([...documented].map(([command, flags]) => [command, [...flags]] as const))('%s --help shows its own usage and flags', async (command, flags) => {
    const res = await cli(...command.split(' '), '--help');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Usage: switchboard ${command} `));
    for (const flag of flags) expect(res.stdout).toContain(flag);
  });

  it.each(namedInProse())("%s, named in the README's prose, is a command", async (command) => {
    const res = await cli(...command.split(' '), '--help');
    expect(res.code).toBe(0);
    // `help` is the one command that answers with the program's usage.
    expect(res.stdout).toMatch(new RegExp(`^Usage: switchboard ${command === 'help' ? '\\[options\\] \\[command\\]' : `${command} `}`));
  });
});

describe('CLI conventions', () => {
  it('help and --version', async () => {
    const help = await cli('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: switchboard/);
    expect(help.stdout).toMatch(/api-key +API keys: create, list, revoke/);
    const version = await cli('--version');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version);
    expect((await cli('help', 'secrets')).stdout).toMatch(/reseal/);
  });

  it.each([
    [['api-key', 'create', '--workspace', 'w', '--bogus'], "error: unknown option '--bogus'", 'switchboard api-key create --help'],
    [['workspace', 'create'], "error: required option '--name <name>' not specified", 'switchboard workspace create --help'],
    [['connection', 'create', '--workspace', 'w'], "error: required option '--integration <key>' not specified", 'switchboard connection create --help'],
    [['api-key', 'revoke', '--workspace', 'w'], "error: missing required argument 'key'", 'switchboard api-key revoke --help'],
    [['frobnicate'], "error: unknown command 'frobnicate'", 'switchboard help'],
    [['api-key', 'create', '--workspace', 'w', '--scopes', 'admin'], '--scopes: one or more of rest, integrations', 'switchboard api-key create --help'],
    [['custom-field', 'define', '--workspace', 'w', '--key', 'Bad Key'], 'error: --key: lowercase letters', 'switchboard custom-field define --help'],
  ])('%j: one line and a hint, exit 64, before any database', async (args, message, hint) => {
    const res = await cli(...args);
    expect(res.code).toBe(64);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toContain(hint);
    expect(res.stderr).not.toMatch(/PostgreSQL|Usage:/);
  });

  it('a well-formed command does reach for the database', async () => {
    const res = await cli('api-key', 'list', '--workspace', 'w');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/cannot reach PostgreSQL/);
  });
});
