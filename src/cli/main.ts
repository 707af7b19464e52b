import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { devDatabaseUrl, loadConfig, publicUrls, type Config } from '../config';
import { keyringFromConfig } from '../crypto/envelope';
import { migrate } from '../db/migrate';
import { sealLegacyWebhookSecrets } from '../db/repos/webhook-secrets';
import { resealSecrets } from '../db/repos/reseal';
import { createDb, type Db } from '../db/pool';
import { API_KEY_SCOPES, createApiKey, listApiKeys, revokeApiKey, type ApiKeyScope } from '../db/repos/api-keys';
import { importFlow } from '../db/repos/flows';
import { parseFlowGraph } from '../chat/flow-schema';
import { importJourneyDefinition, InvalidJourneyDefinition, JourneyIdTaken } from '../journeys/import';
import { defineCustomField, listCustomFields } from '../db/repos/leads';
import { createUser, setAllowedIntegrations } from '../db/repos/users';
import { createWorkspace, getWorkspace } from '../db/repos/workspaces';
import { isUuid } from '../ids';
import { CustomFieldDef } from '../leads/rules';
import { describeIssues } from '../validation';
import { agentCreate, agentUpdate, phoneNumberAdd, phoneNumberAssign } from './agents';
import { connectionCreate, connectionDelete, connectionList, ConnectionUsageError } from './connection';
import { createDemo } from './demo';
import { passwordFromStdin, promptPassword } from './password';

const USAGE = `Usage: switchboard <command> [options]

  dev                                   start Temporal, Postgres, migrations, the api and a worker (npm start)
  migrate                               apply database migrations
  workspace create --name N [--region US] [--timezone America/New_York]
  api-key create --workspace W [--name N] [--scopes rest,integrations] [--superuser]
                                        prints the key once; scopes (default both): rest = /v1 and no-code routes,
                                        integrations = x-key on /api/automation/*; --superuser: the webhook-secret routes
  api-key list --workspace W
  api-key revoke --workspace W <key id or prefix>
  user create --workspace W --email E [--password-stdin]  prompts for the password (no echo), or reads it from stdin
  user set-integrations --workspace W --user ID|EMAIL --integrations slack,hubspot|all
                                        the integrations a user's JWT may run on the automation endpoint
  connection create --workspace W --integration K [--user ID|EMAIL] [--kind oauth2|api_key|basic|none]
               [--secrets-stdin | --secret NAME=VALUE ...] [--setting NAME=VALUE ...] [--expires-in SECONDS]
                                        a user's (--user) or the workspace's connection; secrets are sealed, never printed
  connection list --workspace W
  connection delete --workspace W <connection id>
  agent create --workspace W --name N [--picture URL] [--transfer-number PHONE]
               [--phone-group NAME] [--numbers PHONE,PHONE] [--call-window JSON]
  agent update --workspace W --agent ID [--name N] [--picture URL|none] [--transfer-number PHONE|none]
               [--call-window JSON|none] [--numbers PHONE,PHONE|none]
                                        --numbers replaces the agent's numbers; JSON: {"start":"09:00","end":"17:00","days":["mon"]}
  phone-number add --workspace W --number PHONE [--agent ID]
                                        a number belongs to one workspace
  phone-number assign --workspace W <number or id> --agent ID|none
  journey import --workspace W FILE.json                   {id?, name, steps}
  flow import --workspace W FILE.json                      {id?, name, public_chat?, allowed_origins?, owner:{name, picture?}, graph}
  custom-field define --workspace W --key K [--label L]   lead fields beyond the standard ones are kept only when defined
  secrets reseal                        re-seal every stored secret under ENCRYPTION_KEY (after a key change; resumable)
  demo [--json]                         create a complete demo workspace and print its keys and ids

Database: DATABASE_URL, or the dev stack's own Postgres (npm start) when unset.`;

class UsageError extends Error {}

/** Entry point of the `switchboard` command. */
export async function main(argv: string[]): Promise<void> {
  try {
    await dispatch(argv);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConnectionUsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exitCode = 64;
    } else {
      console.error(`error: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  }
}

const OPTIONS = {
  name: { type: 'string' },
  workspace: { type: 'string' },
  region: { type: 'string' },
  timezone: { type: 'string' },
  superuser: { type: 'boolean' },
  scopes: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  picture: { type: 'string' },
  'transfer-number': { type: 'string' },
  'phone-group': { type: 'string' },
  numbers: { type: 'string' },
  'call-window': { type: 'string' },
  agent: { type: 'string' },
  number: { type: 'string' },
  json: { type: 'boolean' },
  key: { type: 'string' },
  label: { type: 'string' },
  user: { type: 'string' },
  integrations: { type: 'string' },
  integration: { type: 'string' },
  kind: { type: 'string' },
  setting: { type: 'string', multiple: true },
  secret: { type: 'string', multiple: true },
  'secrets-stdin': { type: 'boolean' },
  'expires-in': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function dispatch(argv: string[]): Promise<void> {
  const { values: opt, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [cmd, sub, ...rest] = positionals;
  if (!cmd || opt.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  // Loaded only for `dev`: it pulls in the Temporal worker, which the admin commands do not need.
  if (cmd === 'dev') return (await import('./dev')).runDevStack(config);

  const single = cmd === 'migrate' || cmd === 'demo';
  const command = single ? cmd : `${cmd} ${sub ?? ''}`.trim();
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command: ${command}`);

  const db = await openDb(config);
  try {
    await migrate(db);
    await runCommand(command, { db, config, opt, rest: single ? positionals.slice(1) : rest });
  } finally {
    await db.close();
  }
}

const COMMANDS = [
  'migrate',
  'demo',
  'workspace create',
  'api-key create',
  'api-key list',
  'api-key revoke',
  'user create',
  'user set-integrations',
  'connection create',
  'connection list',
  'connection delete',
  'agent create',
  'agent update',
  'phone-number add',
  'phone-number assign',
  'journey import',
  'flow import',
  'custom-field define',
  'secrets reseal',
];

type Opts = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : (typeof OPTIONS)[K] extends { multiple: true } ? string[] : string;
};

async function runCommand(command: string, c: { db: Db; config: Config; opt: Opts; rest: string[] }): Promise<void> {
  const { db, opt } = c;
  const need = (name: keyof Opts): string => {
    const v = opt[name];
    if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
    return v;
  };
  const workspace = async () => {
    const id = need('workspace');
    if (!isUuid(id) || !(await getWorkspace(db, id))) throw new Error(`workspace ${id} not found`);
    return id;
  };
  switch (command) {
    case 'migrate': {
      const sealed = await sealLegacyWebhookSecrets(db, keyringFromConfig(c.config));
      return print({ status: 'success', message: 'migrations applied', webhook_secrets_sealed: sealed });
    }
    case 'demo': {
      const demo = await createDemo(db, publicUrls(c.config));
      if (opt.json) process.stdout.write(`${JSON.stringify(demo)}\n`);
      else for (const [k, v] of Object.entries(demo)) console.log(`${k.padEnd(18)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
      return;
    }
    case 'workspace create': {
      const w = await createWorkspace(db, { name: need('name'), defaultRegion: opt.region, timezone: opt.timezone });
      return print({ workspace_id: w.id, name: w.name, default_region: w.default_region, timezone: w.timezone });
    }
    case 'api-key create': {
      const scopes = opt.scopes === undefined ? undefined : parseScopes(opt.scopes);
      const { key, row } = await createApiKey(db, await workspace(), { name: opt.name ?? 'cli', superuser: opt.superuser, scopes });
      return print({ id: row.id, prefix: row.prefix, superuser: row.superuser, scopes: row.scopes, api_key: key, note: 'shown once: store it now' });
    }
    case 'api-key list':
      return print(await listApiKeys(db, await workspace()));
    case 'api-key revoke': {
      const target = c.rest[0];
      if (!target) throw new UsageError('api-key revoke needs a key id or prefix');
      if (!(await revokeApiKey(db, await workspace(), target))) throw new Error(`no live key ${target} in this workspace`);
      return print({ status: 'success', message: `revoked ${target}` });
    }
    case 'user create': {
      const ws = await workspace();
      const u = await createUser(db, ws, { email: need('email'), password: await password(opt) });
      return print({ user_id: u.id, email: u.email });
    }
    case 'user set-integrations': {
      const list = need('integrations').trim();
      const integrations = list === 'all' ? null : list.split(',').map((k) => k.trim()).filter(Boolean);
      const bad = (integrations ?? []).filter((k) => !/^[a-z][a-z0-9_]*$/.test(k));
      if (bad.length || integrations?.length === 0) throw new UsageError(`--integrations: integration keys (snake_case) separated by commas, or "all"`);
      const u = await setAllowedIntegrations(db, await workspace(), need('user'), integrations);
      if (!u) throw new Error(`no user ${need('user')} in this workspace`);
      return print({ user_id: u.id, email: u.email, allowed_integrations: integrations });
    }
    case 'connection create':
      return print(await connectionCreate(db, await workspace(), opt));
    case 'connection list':
      return print(await connectionList(db, await workspace()));
    case 'connection delete':
      return print(await connectionDelete(db, await workspace(), c.rest[0]));
    case 'agent create':
      need('name');
      return print(await agentCreate(db, await workspace(), opt));
    case 'agent update':
      return print(await agentUpdate(db, await workspace(), opt));
    case 'phone-number add':
      need('number');
      return print(await phoneNumberAdd(db, await workspace(), opt));
    case 'phone-number assign':
      return print(await phoneNumberAssign(db, await workspace(), c.rest[0], opt));
    case 'journey import': {
      const file = c.rest[0];
      try {
        return print(await importJourneyDefinition(db, await workspace(), readJson(file)));
      } catch (err) {
        if (err instanceof InvalidJourneyDefinition) throw new Error(`${file} is not a valid journey:\n  ${err.issues.join('\n  ')}`);
        if (err instanceof JourneyIdTaken) throw new Error(`journey ${err.journeyId} belongs to another workspace`);
        throw err;
      }
    }
    case 'flow import': {
      const file = readJson(c.rest[0]) as {
        id?: string;
        name?: string;
        public_chat?: boolean;
        allowed_origins?: unknown;
        owner?: { name?: string; picture?: string };
        graph?: unknown;
      };
      if (!file.name || !file.owner?.name || file.graph === undefined) throw new Error('flow file needs "name", "owner.name" and "graph"');
      if (file.id !== undefined && (typeof file.id !== 'string' || !isUuid(file.id))) throw new Error('flow "id" must be a UUID');
      const origins = file.allowed_origins ?? [];
      if (!Array.isArray(origins) || !origins.every((o) => typeof o === 'string' && /^https?:\/\/[^/\s]+$/.test(o))) {
        throw new Error('flow "allowed_origins" must be a list of origins like "https://example.com" (scheme and host, no path)');
      }
      let graph;
      try {
        graph = parseFlowGraph(file.graph);
      } catch (err) {
        throw new Error(`${c.rest[0]}: ${(err as Error).message}`);
      }
      return print(
        await importFlow(db, await workspace(), {
          id: file.id,
          name: file.name,
          publicChat: file.public_chat ?? false,
          ownerName: file.owner.name,
          ownerPicture: file.owner.picture,
          allowedOrigins: origins as string[],
          graph,
        }),
      );
    }
    case 'secrets reseal':
      return reseal(db, c.config);
    case 'custom-field define': {
      const def = CustomFieldDef.safeParse({ key: need('key'), label: opt.label });
      if (!def.success) throw new UsageError(describeIssues(def.error.issues, 'field').replace(/^key:/, '--key:').replace(/^label:/, '--label:'));
      const ws = await workspace();
      await defineCustomField(db, ws, def.data.key, def.data.label);
      const field = (await listCustomFields(db, ws)).find((f) => f.key === def.data.key);
      return print({ status: 'success', workspace_id: ws, ...field });
    }
  }
}

/** `secrets reseal`: progress on stderr per batch, the totals on stdout; exit 1 when a value did not open. */
async function reseal(db: Db, config: Config): Promise<void> {
  const result = await resealSecrets(db, keyringFromConfig(config), {
    onProgress: (p) => console.error(`${p.column}: ${p.resealed}/${p.stale} resealed${p.failed.length ? `, ${p.failed.length} did not open` : ''}`),
  });
  print({ status: result.columns.some((c) => c.failed.length) ? 'failed' : 'success', ...result });
  const failed = result.columns.filter((c) => c.failed.length);
  if (failed.length) {
    console.error(`error: some values did not open (add the key that sealed them to ENCRYPTION_KEYS_PREVIOUS and run again): ${failed.map((c) => `${c.column} rows ${c.failed.join(', ')}`).join('; ')}`);
    process.exitCode = 1;
  }
}

/** The new user's password: prompted for, or from stdin; `--password P` still works, with a warning. */
async function password(opt: Opts): Promise<string> {
  if (opt.password !== undefined && opt['password-stdin']) throw new UsageError('use --password-stdin or --password, not both');
  if (opt.password !== undefined) {
    if (!opt.password) throw new UsageError('--password is empty');
    console.error('warning: --password leaves the password in shell history and the process list; use the prompt or --password-stdin');
    return opt.password;
  }
  return opt['password-stdin'] ? passwordFromStdin() : promptPassword();
}

function parseScopes(list: string): ApiKeyScope[] {
  const scopes = [...new Set(list.split(',').map((s) => s.trim()).filter(Boolean))];
  const bad = scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (bad.length || !scopes.length) throw new UsageError(`--scopes: one or more of ${API_KEY_SCOPES.join(', ')} separated by commas`);
  return scopes as ApiKeyScope[];
}

function readJson(file: string | undefined): unknown {
  if (!file) throw new UsageError('a JSON file argument is required');
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

/** The CLI's database: DATABASE_URL, else the dev stack's private Postgres (which must be running). */
async function openDb(config: Config): Promise<Db> {
  const url = config.DATABASE_URL ?? devDatabaseUrl(config);
  const db = createDb(url, { max: 2 });
  try {
    await db.ping();
  } catch (err) {
    await db.close();
    throw new Error(
      `cannot reach PostgreSQL (${(err as Error).message}). Start the stack with \`npm start\` or set DATABASE_URL.`,
    );
  }
  return db;
}
