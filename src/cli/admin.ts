// The admin commands' actions (the command line itself is src/cli/main.ts); each prints JSON on stdout.
import { readFileSync } from 'node:fs';
import { publicUrls, type Config } from '../core/config';
import { keyringFromConfig } from '../crypto/keyring';
import type { Db } from '../db/pool';
import { API_KEY_SCOPES, createApiKey, listApiKeys, revokeApiKey, type ApiKeyScope } from '../workspaces/db/api-keys';
import { importFlow } from '../chat/db/flows';
import { defineCustomField, listCustomFields } from '../leads/db/leads';
import { resealSecrets } from '../crypto/db/reseal';
import { createUser, setAllowedIntegrations } from '../workspaces/db/users';
import { sealLegacyWebhookSecrets } from '../webhooks/db/webhook-secrets';
import { createWorkspace, getWorkspace } from '../workspaces/db/workspaces';
import { parseFlowGraph, pinFlowActionVersions } from '../chat/flow-schema';
import { isUuid } from '../core/ids';
import { importJourneyDefinition, InvalidJourneyDefinition, JourneyIdTaken } from '../journeys/import';
import { CustomFieldDef } from '../leads/rules';
import { describeIssues } from '../core/validation';
import { createDemo } from './demo';
import { sandboxEndpoints } from '../sandbox/endpoint';
import { passwordFromStdin, promptPassword } from './password';

/** A command-line mistake: exit 64 with a hint to the command's --help. */
export class UsageError extends Error {}

export const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

/** The workspace a command names, which must exist. */
export async function workspaceOf(db: Db, id: string): Promise<string> {
  if (!isUuid(id) || !(await getWorkspace(db, id))) throw new Error(`workspace ${id} not found`);
  return id;
}

export async function migrateCommand(db: Db, config: Config) {
  const sealed = await sealLegacyWebhookSecrets(db, keyringFromConfig(config));
  print({ status: 'success', message: 'migrations applied', webhook_secrets_sealed: sealed });
}

export async function demoCommand(db: Db, config: Config, json: boolean) {
  // Connections only to a sandbox the outbound guard lets vendor requests reach (not in production).
  const sandbox = sandboxEndpoints(config).length ? config.VENDOR_SANDBOX_URL! : null;
  const demo = await createDemo(db, { ...publicUrls(config), vendor_sandbox_url: sandbox });
  if (json) process.stdout.write(`${JSON.stringify(demo)}\n`);
  else for (const [k, v] of Object.entries(demo)) console.log(`${k.padEnd(18)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
}

export async function workspaceCreate(db: Db, o: { name: string; region?: string; timezone?: string }) {
  const w = await createWorkspace(db, { name: o.name, defaultRegion: o.region, timezone: o.timezone });
  print({ workspace_id: w.id, name: w.name, default_region: w.default_region, timezone: w.timezone });
}

/** `--scopes rest,integrations`: parsed before the database is touched. */
export function parseScopes(list: string): ApiKeyScope[] {
  const scopes = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (bad.length || !scopes.length) throw new UsageError(`--scopes: one or more of ${API_KEY_SCOPES.join(', ')} separated by commas`);
  return scopes as ApiKeyScope[];
}

export async function apiKeyCreate(db: Db, ws: string, o: { name?: string; superuser?: boolean; scopes?: ApiKeyScope[] }) {
  const { key, row } = await createApiKey(db, ws, { name: o.name ?? 'cli', superuser: o.superuser, scopes: o.scopes });
  print({ id: row.id, prefix: row.prefix, superuser: row.superuser, scopes: row.scopes, api_key: key, note: 'shown once: store it now' });
}

export const apiKeyList = async (db: Db, ws: string) => print(await listApiKeys(db, ws));

export async function apiKeyRevoke(db: Db, ws: string, target: string) {
  if (!(await revokeApiKey(db, ws, target))) throw new Error(`no live key ${target} in this workspace`);
  print({ status: 'success', message: `revoked ${target}` });
}

/** The new user's password: prompted for, or from stdin; `--password P` still works, with a warning. */
async function password(o: { password?: string; passwordStdin?: boolean }): Promise<string> {
  if (o.password !== undefined) {
    if (!o.password) throw new UsageError('--password is empty');
    console.error('warning: --password leaves the password in shell history and the process list; use the prompt or --password-stdin');
    return o.password;
  }
  return o.passwordStdin ? passwordFromStdin() : promptPassword();
}

export async function userCreate(db: Db, ws: string, o: { email: string; password?: string; passwordStdin?: boolean }) {
  const u = await createUser(db, ws, { email: o.email, password: await password(o) });
  print({ user_id: u.id, email: u.email });
}

/** `--integrations slack,hubspot|all`: parsed before the database is touched. */
export function parseIntegrations(text: string): string[] | 'all' {
  const list = text.trim();
  if (list === 'all') return 'all';
  const integrations = list
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (!integrations.length || integrations.some((k) => !/^[a-z][a-z0-9_]*$/.test(k))) {
    throw new UsageError('--integrations: integration keys (snake_case) separated by commas, or "all"');
  }
  return integrations;
}

export async function userSetIntegrations(db: Db, ws: string, o: { user: string; integrations: string[] | 'all' }) {
  const integrations = o.integrations === 'all' ? null : o.integrations;
  const u = await setAllowedIntegrations(db, ws, o.user, integrations);
  if (!u) throw new Error(`no user ${o.user} in this workspace`);
  print({ user_id: u.id, email: u.email, allowed_integrations: integrations });
}

export async function journeyImport(db: Db, ws: string, file: string) {
  try {
    print(await importJourneyDefinition(db, ws, readJson(file)));
  } catch (err) {
    if (err instanceof InvalidJourneyDefinition) throw new Error(`${file} is not a valid journey:\n  ${err.issues.join('\n  ')}`);
    if (err instanceof JourneyIdTaken) throw new Error(`journey ${err.journeyId} belongs to another workspace`);
    throw err;
  }
}

type FlowFile = { id?: string; name?: string; public_chat?: boolean; allowed_origins?: unknown; owner?: { name?: string; picture?: string }; graph?: unknown };

export async function flowImport(db: Db, ws: string, path: string) {
  const file = readJson(path) as FlowFile;
  if (!file.name || !file.owner?.name || file.graph === undefined) throw new Error('flow file needs "name", "owner.name" and "graph"');
  if (file.id !== undefined && (typeof file.id !== 'string' || !isUuid(file.id))) throw new Error('flow "id" must be a UUID');
  const origins = file.allowed_origins ?? [];
  if (!Array.isArray(origins) || !origins.every((o) => typeof o === 'string' && /^https?:\/\/[^/\s]+$/.test(o))) {
    throw new Error('flow "allowed_origins" must be a list of origins like "https://example.com" (scheme and host, no path)');
  }
  let graph;
  try {
    graph = pinFlowActionVersions(parseFlowGraph(file.graph));
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
  const flow = { id: file.id, name: file.name, publicChat: file.public_chat ?? false, ownerName: file.owner.name, ownerPicture: file.owner.picture };
  print(await importFlow(db, ws, { ...flow, allowedOrigins: origins as string[], graph }));
}

/** `--key`/`--label` of `custom-field define`, checked before the database is touched. */
export function parseCustomField(o: { key: string; label?: string }) {
  const def = CustomFieldDef.safeParse({ key: o.key, label: o.label });
  if (!def.success)
    throw new UsageError(
      describeIssues(def.error.issues, 'field')
        .replace(/^key:/, '--key:')
        .replace(/^label:/, '--label:'),
    );
  return def.data;
}

export async function customFieldDefine(db: Db, ws: string, def: { key: string; label?: string | null }) {
  await defineCustomField(db, ws, def.key, def.label ?? undefined);
  const field = (await listCustomFields(db, ws)).find((f) => f.key === def.key);
  print({ status: 'success', workspace_id: ws, ...field });
}

/** `secrets reseal`: progress on stderr per batch, the totals on stdout; exit 1 when a value did not open. */
export async function secretsReseal(db: Db, config: Config) {
  const result = await resealSecrets(db, keyringFromConfig(config), {
    onProgress: (p) => console.error(`${p.column}: ${p.resealed}/${p.stale} resealed${p.failed.length ? `, ${p.failed.length} did not open` : ''}`),
  });
  const failed = result.columns.filter((c) => c.failed.length);
  print({ status: failed.length ? 'failed' : 'success', ...result });
  if (failed.length) {
    const rows = failed.map((c) => `${c.column} rows ${c.failed.join(', ')}`).join('; ');
    console.error(`error: some values did not open (add the key that sealed them to ENCRYPTION_KEYS_PREVIOUS and run again): ${rows}`);
    process.exitCode = 1;
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}
