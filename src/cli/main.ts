import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { devDatabaseUrl, loadConfig, publicUrls, type Config } from '../core/config';
import type { CampaignDeps } from '../campaigns/service';
import { migrate } from '../db/migrate';
import { connectTemporal } from '../temporal/client';
import { createDb, type Db } from '../db/pool';
import { packageRoot } from '../core/paths';
import * as admin from './admin';
import { agentCreate, agentUpdate, phoneNumberAdd, phoneNumberAssign } from './agents';
import { campaignControl, campaignCreate, campaignList, campaignWatch } from './campaign';
import { connectionCreate, connectionDelete, connectionList, ConnectionUsageError } from './connections';
import { ImportUsageError, uploadFile, watchImport, type ApiTarget } from './leads-import';
import { withWorkflowUrl } from './run-url';

const VERSION = (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** Entry point of the `switchboard` command: exit 0, 1 for a failure, 64 for a command-line mistake (with a hint). */
export async function main(argv: string[]): Promise<void> {
  let current = 'switchboard';
  const program = buildProgram();
  program.hook('preAction', (_root, action) => void (current = commandPath(action)));
  try {
    if (argv.length === 0) return void program.outputHelp();
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 64; // commander has printed the error and its hint
    } else if (err instanceof admin.UsageError || err instanceof ConnectionUsageError || err instanceof ImportUsageError) {
      console.error(`error: ${err.message}\n(see \`${current} --help\`)`);
      process.exitCode = 64;
    } else {
      console.error(`error: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  }
}

const commandPath = (c: Command): string => (c.parent ? `${commandPath(c.parent)} ${c.name()}` : c.name());

/** A command under parent; its usage errors end with a pointer to its own --help. */
function command(parent: Command, nameAndArgs: string, summary: string): Command {
  const c = parent.command(nameAndArgs).description(summary);
  return c.showHelpAfterError(`(see \`${commandPath(c)} --help\`)`);
}

const ws = (c: Command) => c.requiredOption('--workspace <id>', 'the workspace id');
/** A parse step for an option value: a UsageError becomes commander's own one-line error. */
const parsed =
  <T>(fn: (v: string) => T) =>
  (v: string) => {
    try {
      return fn(v);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
const repeatable = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

/** Runs fn against the migrated database (DATABASE_URL or the dev stack's), closing it afterwards. */
const withDb =
  (fn: (db: Db, config: Config, ...args: any[]) => Promise<unknown>) =>
  async (...args: any[]) => {
    const config = loadConfig();
    const db = await openDb(config);
    try {
      await migrate(db);
      await fn(db, config, ...args);
    } finally {
      await db.close();
    }
  };
/** Like withDb for a command taking --workspace: the workspace must exist. Receives (db, workspace, options, args). */
const inWorkspace = (fn: (db: Db, workspace: string, o: any, ...args: string[]) => Promise<unknown>) =>
  withDb(async (db, _config, ...args) => {
    const cmd = args.pop() as Command;
    const opts = cmd.opts();
    return fn(db, await admin.workspaceOf(db, opts.workspace), opts, ...(args.slice(0, -1) as string[]));
  });
/**
 * Like inWorkspace, with a Temporal client as well (commands that start or signal runs); prints what fn returns, with the
 * run it names as `workflow_url` (its page in the Temporal UI).
 */
const withTemporal = (fn: (d: CampaignDeps, workspace: string, o: any, ...args: string[]) => Promise<unknown>) =>
  inWorkspace(async (db, w, o, ...args) => {
    const config = loadConfig();
    const temporal = await connectTemporal(config);
    try {
      admin.print(withWorkflowUrl(config, await fn({ db, client: temporal.client, taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX }, w, o, ...args)));
    } finally {
      await temporal.connection.close();
    }
  });
const printed =
  <A extends unknown[]>(fn: (...a: A) => Promise<unknown>) =>
  async (...a: A) =>
    admin.print(await fn(...a));

function buildProgram(): Command {
  const program = new Command('switchboard')
    .description("Switchboard admin CLI. Database: DATABASE_URL, or the dev stack's own Postgres (npm start) when unset.")
    .version(VERSION, '-v, --version', 'print the version')
    .helpCommand('help [command]', "show the commands, or one command's usage")
    .exitOverride()
    .showHelpAfterError('(run `switchboard help` for the commands)');

  command(program, 'dev', 'start Temporal, Postgres, migrations, the api and a worker (npm start)').action(async () =>
    // Loaded only here: it pulls in the Temporal worker, which the admin commands do not need.
    (await import('./dev')).runDevStack(loadConfig()),
  );
  // The api and worker of `npm start`, which the dev launcher starts and watches (not for people to run).
  program.command('dev-services', { hidden: true }).action(async () => (await import('./dev-services')).runDevServices(loadConfig()));
  command(program, 'cluster', 'the production shape on one machine: Temporal server (mTLS, PostgreSQL), two apis, split workers (npm run cluster)').action(
    async () => (await import('./cluster')).runCluster(loadConfig()),
  );
  command(program, 'migrate', 'apply database migrations').action(withDb((db, config) => admin.migrateCommand(db, config)));
  command(program, 'demo', 'create a complete demo workspace and print its keys and ids')
    .option('--json', 'one JSON object')
    .action(withDb((db, config, o: { json?: boolean }) => admin.demoCommand(db, config, !!o.json)));

  const workspace = command(program, 'workspace', 'workspaces');
  command(workspace, 'create', 'create a workspace')
    .requiredOption('--name <name>', 'its name')
    .option('--region <code>', 'ISO region for phones written without a country code (default US)')
    .option('--timezone <zone>', 'IANA time zone (default America/New_York)')
    .action(withDb((db, _c, o) => admin.workspaceCreate(db, o)));

  const apiKey = command(program, 'api-key', 'API keys');
  ws(command(apiKey, 'create', 'create an API key; prints it once (stored as SHA-256 + prefix)'))
    .option('--name <name>', 'a label', 'cli')
    .option('--scopes <list>', 'rest (the /v1 and no-code routes), integrations (x-key on /api/automation/*); default both', parsed(admin.parseScopes))
    .option('--superuser', 'may also read and rotate the journey webhook secret')
    .action(inWorkspace((db, w, o) => admin.apiKeyCreate(db, w, o)));
  ws(command(apiKey, 'list', "the workspace's keys: ids, prefixes, scopes, superuser, last use, revocation")).action(
    inWorkspace((db, w) => admin.apiKeyList(db, w)),
  );
  ws(command(apiKey, 'revoke <key>', 'revoke a key by id or prefix')).action(inWorkspace((db, w, _o, key) => admin.apiKeyRevoke(db, w, key!)));

  const user = command(program, 'user', 'users of the automation login');
  ws(command(user, 'create', 'create a user (scrypt hash): prompts for the password without echo, or reads it from stdin'))
    .requiredOption('--email <email>', 'login email')
    .option('--password-stdin', 'read the password from stdin')
    .addOption(new Option('--password <password>', 'the password (warns: shell history, ps)').conflicts('passwordStdin'))
    .action(inWorkspace((db, w, o) => admin.userCreate(db, w, o)));
  ws(command(user, 'set-integrations', "which integrations a user's JWT may run on the automation endpoint (default all)"))
    .requiredOption('--user <id|email>', 'the user')
    .requiredOption('--integrations <list>', 'slack,hubspot or all', parsed(admin.parseIntegrations))
    .action(inWorkspace((db, w, o) => admin.userSetIntegrations(db, w, o)));

  const connection = command(program, 'connection', 'integration connections (secrets sealed, never printed)');
  ws(command(connection, 'create', "a user's (--user) or the workspace's connection; replaces the owner's old one"))
    .requiredOption('--integration <key>', 'integration key, e.g. hubspot')
    .option('--user <id|email>', 'the user who owns it (default: the workspace)')
    .option('--kind <kind>', 'oauth2, api_key, basic or none', 'api_key')
    .option('--secrets-stdin', 'secrets as a JSON object on stdin')
    .option('--secret <name=value>', 'a secret (repeatable)', repeatable)
    .option('--setting <name=value>', 'a setting (repeatable)', repeatable)
    .option('--expires-in <seconds>', "the access token's remaining lifetime")
    .action(inWorkspace(printed((db, w, o) => connectionCreate(db, w, kebab(o)))));
  ws(command(connection, 'list', 'ids, owners, kinds, setting values and secret names only')).action(inWorkspace(printed((db, w) => connectionList(db, w))));
  ws(command(connection, 'delete <id>', 'delete a connection')).action(inWorkspace(printed((db, w, _o, id) => connectionDelete(db, w, id))));

  command(
    command(program, 'secrets', 'sealed secrets'),
    'reseal',
    're-seal every stored secret under ENCRYPTION_KEY (after a key change; resumable, with progress)',
  ).action(withDb((db, config) => admin.secretsReseal(db, config)));

  const agent = command(program, 'agent', 'voice agents');
  const agentOptions = (c: Command, clear: string) =>
    c
      .option('--name <name>', 'its name')
      .option('--picture <url>', `profile picture URL${clear}`)
      .option('--transfer-number <phone>', `where transfers go${clear}`)
      .option('--numbers <p1,p2>', `its phone group's numbers (replaces them)${clear}`)
      .option('--call-window <json>', `{"start":"09:00","end":"17:00","days":["mon"]}${clear}`);
  agentOptions(ws(command(agent, 'create', 'an agent with a phone group holding its numbers')), '')
    .option('--phone-group <name>', "the phone group's name")
    .action(inWorkspace(printed((db, w, o) => agentCreate(db, w, kebab(o)))));
  agentOptions(ws(command(agent, 'update', 'change the given fields, as PATCH /v1/agents/{id}')), ', or none')
    .requiredOption('--agent <id>', 'the agent')
    .action(inWorkspace(printed((db, w, o) => agentUpdate(db, w, kebab(o)))));

  const number = command(program, 'phone-number', 'phone numbers (a number belongs to one workspace)');
  ws(command(number, 'add', 'add a number'))
    .requiredOption('--number <phone>', 'the number')
    .option('--agent <id>', "into this agent's phone group")
    .action(inWorkspace(printed((db, w, o) => phoneNumberAdd(db, w, kebab(o)))));
  ws(command(number, 'assign <number>', 'move a number (or its id) to an agent, or detach it'))
    .requiredOption('--agent <id|none>', 'the agent, or none')
    .action(inWorkspace(printed((db, w, o, ref) => phoneNumberAssign(db, w, ref, kebab(o)))));

  ws(command(command(program, 'journey', 'journeys'), 'import <file>', 'import {id?, name, steps} as a new, validated version')).action(
    inWorkspace((db, w, _o, file) => admin.journeyImport(db, w, file!)),
  );
  ws(
    command(command(program, 'flow', 'chat flows'), 'import <file>', 'import {id?, name, public_chat?, allowed_origins?, owner, graph}; prints every problem'),
  ).action(inWorkspace((db, w, _o, file) => admin.flowImport(db, w, file!)));
  ws(command(command(program, 'custom-field', 'custom lead fields'), 'define', 'define a lead field (undefined ones are not kept)'))
    .requiredOption('--key <key>', 'field key (snake_case)')
    .option('--label <label>', 'display label')
    .hook('preAction', (c) => void admin.parseCustomField(c.opts()))
    .action(inWorkspace((db, w, o) => admin.customFieldDefine(db, w, admin.parseCustomField(o))));
  command(command(program, 'leads', 'leads'), 'import [file]', 'import a CSV or NDJSON (.ndjson, .jsonl) file through the api, with a progress bar')
    .option('--tag <tag>', 'a tag added to every imported lead')
    .option('--on-conflict <mode>', 'a phone already on file: skip (default) or update its supplied fields')
    .option('--watch <id>', 'follow an import already started instead of uploading')
    .option('--url <origin>', "the api's origin (default SWITCHBOARD_URL, else PUBLIC_BASE_URL or HOST:PORT)")
    .option('--api-key <key>', 'an API key of the workspace (default SWITCHBOARD_API_KEY)')
    .action(async (file: string | undefined, o: { tag?: string; onConflict?: string; watch?: string; url?: string; apiKey?: string }) => {
      if (!file === !o.watch) throw new ImportUsageError('give a file to import, or --watch <id>');
      const target = apiTarget(o);
      const uploaded = o.watch === undefined ? await uploadFile(target, file!, o) : undefined;
      if (uploaded?.workflowUrl) console.error(`run: ${uploaded.workflowUrl}`);
      if (!(await watchImport(target, o.watch ?? uploaded!.importId, undefined, uploaded?.workflowUrl))) process.exitCode = 1;
    });
  const campaign = command(program, 'campaign', "outbound calling campaigns (the api's POST /v1/campaigns and its routes)");
  ws(command(campaign, 'create', 'create a campaign and start it; prints {campaign_id, status}'))
    .requiredOption('--name <name>', 'its name')
    .requiredOption('--agent <id>', 'the agent that calls')
    .option('--tag <tag>', 'audience: the leads with this tag')
    .option('--leads <id,id>', 'audience: these leads')
    .option('--import <id>', 'audience: the leads of this lead import')
    .option('--from <phone>', "caller id (default: from the agent's phone group)")
    .option('--window <json>', '{"start":"09:00","end":"17:00","days":["mon"]}')
    .option('--max-concurrent <n>', 'calls at once (default 5)')
    .option('--calls-per-minute <n>', 'call starts per minute at most')
    .option('--retries <json>', '{"attempts":2,"spacing":"PT1H"}')
    .option('--retry-on <list>', 'outcomes that call again (default no_answer,busy)')
    .option('--start-at <iso>', 'when to start (default now)')
    .action(withTemporal((d, w, o) => campaignCreate(d, w, kebab(o))));
  ws(command(campaign, 'list', "the workspace's campaigns with their counts, newest first")).action(inWorkspace(printed((db, w) => campaignList(db, w))));
  ws(command(campaign, 'watch <id>', 'live progress until the campaign ends'))
    .option('--interval <seconds>', 'seconds between updates', '1')
    .action(inWorkspace((db, w, o, id) => campaignWatch(db, w, id!, Number(o.interval) * 1000)));
  for (const action of ['pause', 'resume', 'cancel'] as const) {
    ws(command(campaign, `${action} <id>`, `${action} a campaign; prints its new state`)).action(
      withTemporal((d, w, _o, id) => campaignControl(d, w, id!, action)),
    );
  }
  // The command list names each group's subcommands.
  for (const group of program.commands.filter((c) => c.commands.length))
    group.description(`${group.description()}: ${group.commands.map((c) => c.name()).join(', ')}`);
  return program;
}

/** commander's camelCase option names as the flags the shared command modules read (`transfer-number`). */
const kebab = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v]));

/** The api a command calls: --url / SWITCHBOARD_URL (else this configuration's own address) and --api-key / SWITCHBOARD_API_KEY. */
function apiTarget(o: { url?: string; apiKey?: string }): ApiTarget {
  const apiKey = o.apiKey ?? process.env.SWITCHBOARD_API_KEY;
  if (!apiKey) throw new ImportUsageError('--api-key or SWITCHBOARD_API_KEY: an API key of the workspace');
  return { url: o.url ?? process.env.SWITCHBOARD_URL ?? publicUrls(loadConfig()).integrations_url, apiKey };
}

/** The CLI's database: DATABASE_URL, else the dev stack's private Postgres (which must be running). */
async function openDb(config: Config): Promise<Db> {
  const url = config.DATABASE_URL ?? devDatabaseUrl(config);
  const db = createDb(url, { max: 2 });
  try {
    await db.ping();
  } catch (err) {
    await db.close();
    throw new Error(`cannot reach PostgreSQL (${(err as Error).message}). Start the stack with \`npm start\` or set DATABASE_URL.`);
  }
  return db;
}
