// The one code path that creates and changes agents and phone numbers: the api's routes and the CLI both call it.
// An agent's numbers are its phone group's; a number belongs to one workspace (checked here under a per-number lock).
import { createAgent, createPhoneGroup } from './db/agents';
import { lockAgent, updateAgentColumns, VOICE_COLUMNS } from './db/agent-admin';
import {
  detachOtherPhones,
  findPhoneNumber,
  insertPhoneNumber,
  lockPhones,
  movePhones,
  phonesOfOtherWorkspaces,
  phonesOfWorkspace,
} from '../workspaces/db/phone-numbers';
import type { Db, Queryable } from '../db/pool';
import { DomainError } from '../core/errors';
import { isUuid } from '../core/ids';
import { workspaceRegion } from '../leads/region';
import { normalizePhone } from '../core/phone';
import type { AgentCreate, AgentUpdate, PhoneNumberAdd } from './schema';

/** The message of an unknown agent, another workspace's agent included. */
export const AGENT_NOT_FOUND = 'Agent not found';
export const PHONE_NUMBER_NOT_FOUND = 'Phone number not found';
/** Says that some other workspace holds the number, never which. */
const PHONE_NUMBER_ELSEWHERE = 'Phone number belongs to another workspace';

async function phoneOf(db: Queryable, workspaceId: string, input: string, field: string): Promise<string> {
  const phone = normalizePhone(input, await workspaceRegion(db, workspaceId));
  if (!phone) throw new DomainError('invalid_fields', `${field}: ${input} is not a valid phone number`);
  return phone;
}

/** Makes the phones the workspace's, in the group: new ones added, the workspace's own moved; 409 when another workspace holds one. */
async function placeNumbers(q: Queryable, workspaceId: string, phones: string[], groupId: string | null): Promise<void> {
  if (!phones.length) return;
  await lockPhones(q, phones);
  if ((await phonesOfOtherWorkspaces(q, workspaceId, phones)).length) throw new DomainError('phone_number_taken', PHONE_NUMBER_ELSEWHERE);
  const own = new Set(await phonesOfWorkspace(q, workspaceId, phones));
  await movePhones(q, workspaceId, [...own], groupId);
  for (const phone of phones) if (!own.has(phone)) await insertPhoneNumber(q, workspaceId, phone, groupId);
}

/** The agent's phone group, created (and set on the agent) when it has none. */
async function groupOf(q: Queryable, workspaceId: string, agent: { id: string; name: string; phone_group_id: string | null }, name?: string): Promise<string> {
  if (agent.phone_group_id) return agent.phone_group_id;
  const group = await createPhoneGroup(q, workspaceId, { name: name ?? `${agent.name} numbers`, numbers: [] });
  await updateAgentColumns(q, workspaceId, agent.id, { phoneGroupId: group.id });
  return group.id;
}

/** The voice settings a create or update gives (undefined: not given). */
const voiceSettingsOf = (input: Record<string, unknown>) => Object.fromEntries(VOICE_COLUMNS.filter((c) => input[c] !== undefined).map((c) => [c, input[c]]));

/** Creates an agent (with a phone group holding its numbers when numbers or a group name are given). */
export async function createAgentWithNumbers(
  db: Db,
  workspaceId: string,
  a: AgentCreate,
): Promise<{ agent_id: string; phone_group_id: string | null; numbers: string[] }> {
  const numbers = [...new Set(await Promise.all((a.numbers ?? []).map((n) => phoneOf(db, workspaceId, n, 'numbers'))))];
  const transfer = a.transfer_number === undefined ? undefined : await phoneOf(db, workspaceId, a.transfer_number, 'transfer_number');
  return db.tx(async (q) => {
    const group =
      numbers.length || a.phone_group ? await createPhoneGroup(q, workspaceId, { name: a.phone_group ?? `${a.name} numbers`, numbers: [] }) : undefined;
    const agent = await createAgent(q, workspaceId, { name: a.name, profilePicture: a.profile_picture, transferNumber: transfer, phoneGroupId: group?.id });
    if (a.call_window) await updateAgentColumns(q, workspaceId, agent.id, { callWindow: a.call_window });
    await updateAgentColumns(q, workspaceId, agent.id, { voiceSettings: voiceSettingsOf(a) });
    await placeNumbers(q, workspaceId, numbers, group?.id ?? null);
    return { agent_id: agent.id, phone_group_id: group?.id ?? null, numbers };
  });
}

/** Changes the given fields of the workspace's agent; `numbers` replaces its phone group's numbers. */
export async function updateAgent(db: Db, workspaceId: string, agentId: string, u: AgentUpdate): Promise<void> {
  const numbers = u.numbers && [...new Set(await Promise.all(u.numbers.map((n) => phoneOf(db, workspaceId, n, 'numbers'))))];
  const transfer = u.transfer_number ? await phoneOf(db, workspaceId, u.transfer_number, 'transfer_number') : u.transfer_number;
  await db.tx(async (q) => {
    const agent = isUuid(agentId) ? await lockAgent(q, workspaceId, agentId) : undefined;
    if (!agent) throw new DomainError('agent_not_found', AGENT_NOT_FOUND);
    await updateAgentColumns(q, workspaceId, agentId, {
      name: u.name,
      profilePicture: u.profile_picture,
      transferNumber: transfer,
      callWindow: u.call_window,
      voiceSettings: voiceSettingsOf(u),
    });
    if (!numbers) return;
    if (!numbers.length && !agent.phone_group_id) return;
    const groupId = await groupOf(q, workspaceId, { ...agent, name: u.name ?? agent.name });
    await placeNumbers(q, workspaceId, numbers, groupId);
    await detachOtherPhones(q, workspaceId, groupId, numbers);
  });
}

/** Adds a number to the workspace, in the agent's phone group when one is given; returns its id. */
export async function addPhoneNumber(db: Db, workspaceId: string, n: PhoneNumberAdd): Promise<string> {
  const phone = await phoneOf(db, workspaceId, n.number, 'number');
  return db.tx(async (q) => {
    const agent = n.agent_id === undefined ? undefined : isUuid(n.agent_id) ? await lockAgent(q, workspaceId, n.agent_id) : undefined;
    if (n.agent_id !== undefined && !agent) throw new DomainError('agent_not_found', AGENT_NOT_FOUND);
    await lockPhones(q, [phone]);
    const own = await findPhoneNumber(q, workspaceId, { phone });
    if (own) throw new DomainError('phone_number_taken', `Phone number already added: id ${own.id}`);
    if ((await phonesOfOtherWorkspaces(q, workspaceId, [phone])).length) throw new DomainError('phone_number_taken', PHONE_NUMBER_ELSEWHERE);
    return insertPhoneNumber(q, workspaceId, phone, agent ? await groupOf(q, workspaceId, agent) : null);
  });
}

/** The workspace's number by its id or its digits (any written form), or a 404-coded DomainError. */
async function phoneNumberIdOf(db: Queryable, workspaceId: string, ref: string): Promise<string> {
  const phone = isUuid(ref) ? undefined : normalizePhone(ref, await workspaceRegion(db, workspaceId));
  const row = isUuid(ref)
    ? await findPhoneNumber(db, workspaceId, { id: ref.toLowerCase() })
    : phone
      ? await findPhoneNumber(db, workspaceId, { phone })
      : undefined;
  if (!row) throw new DomainError('phone_number_not_found', PHONE_NUMBER_NOT_FOUND);
  return row.id;
}

/** Moves the workspace's number (by id or digits) into an agent's phone group, or detaches it (null); returns its id. */
export async function assignPhoneNumber(db: Db, workspaceId: string, ref: string, agentId: string | null): Promise<string> {
  return db.tx(async (q) => {
    const id = await phoneNumberIdOf(q, workspaceId, ref);
    const agent = agentId === null ? null : isUuid(agentId) ? await lockAgent(q, workspaceId, agentId) : undefined;
    if (agent === undefined) throw new DomainError('agent_not_found', AGENT_NOT_FOUND);
    const number = (await findPhoneNumber(q, workspaceId, { id }))!;
    await movePhones(q, workspaceId, [number.phone], agent ? await groupOf(q, workspaceId, agent) : null);
    return id;
  });
}
