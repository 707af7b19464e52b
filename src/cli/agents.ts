// `agent create|update` and `phone-number add|assign`: the same validation and writes as the api (src/agents).
import type { z } from 'zod';
import { assignPhoneNumber, addPhoneNumber, createAgentWithNumbers, updateAgent } from '../agents/manage';
import { AgentCreateInput, AgentUpdateInput, PhoneNumberAddInput } from '../agents/schema';
import { agentDetail } from '../agents/db/agent-admin';
import { findPhoneNumber } from '../workspaces/db/phone-numbers';
import type { Db } from '../db/pool';
import { DomainError } from '../core/errors';
import { describeIssues } from '../core/validation';

export interface AgentOpts {
  name?: string;
  picture?: string;
  'transfer-number'?: string;
  'phone-group'?: string;
  numbers?: string;
  'call-window'?: string;
  agent?: string;
  number?: string;
}

// The api's field names as the flags that carry them, for messages.
const FLAGS: Record<string, string> = {
  name: '--name',
  profile_picture: '--picture',
  transfer_number: '--transfer-number',
  phone_group: '--phone-group',
  numbers: '--numbers',
  call_window: '--call-window',
  number: '--number',
  agent_id: '--agent',
};
const flagged = (message: string) =>
  message.replace(/^([a-z_]+)(?=[.:])/, (field) => FLAGS[field] ?? field).replace(/; ([a-z_]+)(?=[.:])/g, (_, f: string) => `; ${FLAGS[f] ?? f}`);

/** Parses with the api's schema; a problem reads with the flag names. */
function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(flagged(describeIssues(result.error.issues, 'options')));
  return result.data;
}

/** Runs a write of the shared module; its domain errors read with the flag names. */
async function run<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof DomainError) throw new Error(flagged(err.message));
    throw err;
  }
}

// "none" clears a field on update.
const clearable = (v: string | undefined) => (v === 'none' ? null : v);
const list = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? [] : v.split(',').filter(Boolean));
function windowOf(v: string | undefined): unknown {
  if (v === undefined || v === 'none') return clearable(v);
  try {
    return JSON.parse(v);
  } catch {
    throw new Error('--call-window: JSON such as {"start":"09:00","end":"17:00","days":["mon","tue"]}, or none');
  }
}

/** `agent create`: an agent with a phone group holding its numbers. */
export function agentCreate(db: Db, workspaceId: string, opt: AgentOpts) {
  const input = parse(AgentCreateInput, {
    name: opt.name,
    profile_picture: opt.picture,
    transfer_number: opt['transfer-number'],
    phone_group: opt['phone-group'],
    numbers: list(opt.numbers),
    call_window: windowOf(opt['call-window']) ?? undefined,
  });
  return run(() => createAgentWithNumbers(db, workspaceId, input));
}

/** `agent update`: changes the given fields; --numbers replaces the agent's numbers. */
export async function agentUpdate(db: Db, workspaceId: string, opt: AgentOpts) {
  if (!opt.agent) throw new Error('--agent is required');
  const input = parse(AgentUpdateInput, {
    name: opt.name,
    profile_picture: clearable(opt.picture),
    transfer_number: clearable(opt['transfer-number']),
    numbers: list(opt.numbers),
    call_window: windowOf(opt['call-window']),
  });
  await run(() => updateAgent(db, workspaceId, opt.agent!.toLowerCase(), input));
  const a = (await agentDetail(db, workspaceId, opt.agent.toLowerCase()))!;
  return {
    agent_id: a.id,
    name: a.name,
    profile_picture: a.profile_picture,
    transfer_number: a.transfer_number,
    call_window: a.call_window,
    phone_group_id: a.phone_group_id,
    numbers: a.numbers,
  };
}

const numberRow = async (db: Db, workspaceId: string, id: string) => {
  const p = (await findPhoneNumber(db, workspaceId, { id }))!;
  return { phone_number_id: p.id, number: p.phone, agent_id: p.agent_id, phone_group_id: p.phone_group_id };
};

/** `phone-number add`: a number of the workspace, in an agent's phone group when --agent is given. */
export async function phoneNumberAdd(db: Db, workspaceId: string, opt: AgentOpts) {
  const input = parse(PhoneNumberAddInput, { number: opt.number, agent_id: opt.agent });
  return numberRow(db, workspaceId, await run(() => addPhoneNumber(db, workspaceId, input)));
}

/** `phone-number assign <number or id> --agent ID|none`: moves a number to an agent, or detaches it. */
export async function phoneNumberAssign(db: Db, workspaceId: string, ref: string | undefined, opt: AgentOpts) {
  if (!ref || !opt.agent) throw new Error('phone-number assign needs a number (or its id) and --agent ID|none');
  const agent = clearable(opt.agent);
  return numberRow(db, workspaceId, await run(() => assignPhoneNumber(db, workspaceId, ref, agent ?? null)));
}
