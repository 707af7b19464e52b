import { AGENT_NOT_FOUND, createAgentWithNumbers, updateAgent } from '../manage';
import { AgentCreateInput, AgentUpdateInput } from '../schema';
import type { Queryable } from '../../db/pool';
import { agentDetail, listAgents } from '../db/agent-admin';
import { notFound } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { encodeCursor } from '../../http/cursor';
import { defineRoute, workspaceOf } from '../../http/route';
import { AgentBody, AgentPage, ListQuery } from './agent-schemas';
import { keysetPage } from '../../http/keyset-page';
import { presentAgent } from './agent-present';

const TAG = 'Agents';
const EXAMPLE_ID = '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47';

/** GET /v1/agents: the workspace's agents with their numbers, newest first, a page at a time. */
export const listAgentsRoute = defineRoute({
  method: 'get',
  path: '/v1/agents',
  tag: TAG,
  summary: 'List agents',
  description:
    "Newest first, each with its phone group's numbers (valid `from` values of POST /v1/agent), transfer number and call window; pass next_cursor as cursor for the next page.",
  auth: 'apiKey',
  query: ListQuery,
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: EXAMPLE_ID }) } },
  responses: {
    200: { description: 'A page of agents', schema: AgentPage },
    400: { description: 'A malformed limit or cursor' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listAgents(input.deps.db, ws, limit, after));
    return { status: 'success' as const, agents: page.map(presentAgent), next_cursor };
  },
});

/** GET /v1/agents/{id}: one agent with its numbers. */
export const getAgentRoute = defineRoute({
  method: 'get',
  path: '/v1/agents/:id',
  tag: TAG,
  summary: 'Get an agent',
  description: "The agent with its phone group's numbers, transfer number and call window. Another workspace's agent is a 404.",
  auth: 'apiKey',
  example: { params: { id: EXAMPLE_ID } },
  responses: {
    200: { description: 'The agent', schema: AgentBody },
    404: { description: 'Agent not found' },
  },
  async handler(input) {
    const id = (input.params.id ?? '').toLowerCase();
    if (!isUuid(id)) throw notFound(AGENT_NOT_FOUND);
    return agentAnswer(input.deps.db, workspaceOf(input), id);
  },
});

async function agentAnswer(db: Queryable, workspaceId: string, id: string) {
  const agent = await agentDetail(db, workspaceId, id);
  if (!agent) throw notFound(AGENT_NOT_FOUND);
  return { status: 'success' as const, agent: presentAgent(agent) };
}

/** POST /v1/agents: a new agent, with a phone group holding its numbers (as `switchboard agent create`). */
export const createAgentRoute = defineRoute({
  method: 'post',
  path: '/v1/agents',
  tag: TAG,
  summary: 'Create an agent',
  description:
    "Phones are normalised (the workspace's region for numbers without a country code). `numbers` become the agent's phone group: " +
    "numbers new to the workspace are added, the workspace's own are moved from their group. A number another workspace holds → 409, " +
    'and nothing is created. Honours Idempotency-Key.',
  auth: 'apiKey',
  idempotent: true,
  body: AgentCreateInput,
  example: {
    body: {
      name: 'Ava',
      transfer_number: '17145550100',
      numbers: ['17145550101'],
      call_window: { start: '09:00', end: '18:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    },
  },
  links: { GetAgent: { operationId: 'getV1AgentsId', parameters: { id: '$response.body#/agent/id' }, description: 'The new agent' } },
  responses: {
    200: { description: 'The new agent', schema: AgentBody },
    400: { description: 'A missing or invalid field' },
    409: { description: 'A number belongs to another workspace' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const created = await createAgentWithNumbers(input.deps.db, ws, input.body);
    return agentAnswer(input.deps.db, ws, created.agent_id);
  },
});

/** PATCH /v1/agents/{id}: changes an agent's name, picture, transfer number, call window or numbers. */
export const updateAgentRoute = defineRoute({
  method: 'patch',
  path: '/v1/agents/:id',
  tag: TAG,
  summary: 'Update an agent',
  description:
    'Changes only the fields given; null clears profile_picture, transfer_number or call_window. `numbers` replaces the numbers of the ' +
    "agent's phone group (created if it has none): numbers left out are detached from it and stay the workspace's (a phone group " +
    "shared by several agents changes for all of them). Another workspace's agent → 404; a number another workspace holds → 409. " +
    'Honours Idempotency-Key (same as `switchboard agent update`).',
  auth: 'apiKey',
  idempotent: true,
  body: AgentUpdateInput,
  example: { params: { id: EXAMPLE_ID }, body: { name: 'Ava West', call_window: null, numbers: ['17145550101'] } },
  responses: {
    200: { description: 'The agent as changed', schema: AgentBody },
    400: { description: 'An invalid field' },
    404: { description: 'Agent not found' },
    409: { description: 'A number belongs to another workspace' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const id = (input.params.id ?? '').toLowerCase();
    await updateAgent(input.deps.db, ws, id, input.body);
    return agentAnswer(input.deps.db, ws, id);
  },
});
