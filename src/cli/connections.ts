import { loadConfig } from '../core/config';
import { deleteAndRevoke } from '../connections/manage';
import { createConnection, CONNECTION_KINDS, listConnections } from '../connections/store';
import { DomainError } from '../core/errors';
import type { Db } from '../db/pool';
import { findUserInWorkspace } from '../workspaces/db/users';
import { isUuid } from '../core/ids';
import type { ConnectionKind } from '../integrations/define';

/** A command-line mistake (printed with the usage). */
export class ConnectionUsageError extends Error {}

export interface ConnectionOpts {
  integration?: string;
  user?: string;
  kind?: string;
  setting?: string[];
  secret?: string[];
  'secrets-stdin'?: boolean;
  'expires-in'?: string;
}

const KEY = /^[a-z][a-z0-9_]*$/;

/** `k=v` pairs into an object; the value may hold '='. */
function pairs(list: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf('=');
    const key = at > 0 ? item.slice(0, at) : '';
    if (!KEY.test(key)) throw new ConnectionUsageError(`--${flag} takes name=value with a snake_case name (got a value without one)`);
    out[key] = item.slice(at + 1);
  }
  return out;
}

/** Secrets as a JSON object of strings on stdin (`{"access_token": "…", "refresh_token": "…"}`). */
async function secretsFromStdin(stdin: NodeJS.ReadableStream): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ConnectionUsageError('--secrets-stdin: stdin must be a JSON object of strings, e.g. {"api_key": "…"}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.entries(parsed).some(([k, v]) => !KEY.test(k) || typeof v !== 'string')) {
    throw new ConnectionUsageError('--secrets-stdin: stdin must be a JSON object of strings with snake_case names');
  }
  return parsed as Record<string, string>;
}

/** `connection create`: the output names the secrets stored, never their values. */
export async function connectionCreate(db: Db, workspaceId: string, opt: ConnectionOpts, stdin: NodeJS.ReadableStream = process.stdin) {
  const integration = opt.integration ?? '';
  if (!KEY.test(integration)) throw new ConnectionUsageError('--integration is required: the integration key (snake_case, e.g. hubspot)');
  const kind = (opt.kind ?? 'api_key') as ConnectionKind;
  if (!CONNECTION_KINDS.includes(kind)) throw new ConnectionUsageError(`--kind must be one of ${CONNECTION_KINDS.join(', ')}`);
  const secrets = { ...(opt['secrets-stdin'] ? await secretsFromStdin(stdin) : {}), ...pairs(opt.secret, 'secret') };
  if (kind !== 'none' && Object.keys(secrets).length === 0)
    throw new ConnectionUsageError('give the secrets with --secrets-stdin (a JSON object) or --secret name=value');
  let expiresAt: Date | null = null;
  if (opt['expires-in'] !== undefined) {
    if (!/^\d{1,9}$/.test(opt['expires-in'])) throw new ConnectionUsageError("--expires-in takes the access token's remaining lifetime in seconds");
    expiresAt = new Date(Date.now() + Number(opt['expires-in']) * 1000);
  }
  let userId: string | null = null;
  if (opt.user) {
    const user = await findUserInWorkspace(db, workspaceId, opt.user);
    if (!user) throw new Error(`no user ${opt.user} in this workspace`);
    userId = user.id;
  }
  const { connection, replaced } = await createConnection(db, {
    workspaceId,
    userId,
    integration,
    kind,
    secrets,
    settings: pairs(opt.setting, 'setting'),
    expiresAt,
  });
  return { status: 'success', replaced, ...connection };
}

export const connectionList = (db: Db, workspaceId: string) => listConnections(db, workspaceId);

/** `connection delete`: as DELETE /v1/connections/{id}, the vendor's grant is revoked where it can be; `revoked` says how it went. */
export async function connectionDelete(db: Db, workspaceId: string, id: string | undefined) {
  if (!id || !isUuid(id)) throw new ConnectionUsageError('connection delete needs the connection id (from connection list)');
  try {
    const { revoked } = await deleteAndRevoke(db, loadConfig(), workspaceId, id);
    return { status: 'success', message: `deleted ${id}`, revoked };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'connection_not_found') throw new Error(`no connection ${id} in this workspace`);
    throw err;
  }
}
